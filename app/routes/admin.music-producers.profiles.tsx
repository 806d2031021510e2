import { pageTitle } from "~/components/page-title";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { ModerationListPage } from "~/modules/profiles/moderation-list-page";
import { moderationListData } from "~/modules/profiles/moderation-list.server";
import type { Route } from "./+types/admin.music-producers.profiles";

export const handle = { routeName: "admin-music-producers-profiles" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Music Producer Profiles");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  return moderationListData("music_producer", new URL(request.url).searchParams);
}

export default function AdminMusicProducerProfiles({ loaderData }: Route.ComponentProps) {
  return <ModerationListPage {...loaderData} />;
}
