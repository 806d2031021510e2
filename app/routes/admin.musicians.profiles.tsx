import { pageTitle } from "~/components/page-title";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { ModerationListPage } from "~/modules/profiles/moderation-list-page";
import { moderationListData } from "~/modules/profiles/moderation-list.server";
import type { Route } from "./+types/admin.musicians.profiles";

export const handle = { routeName: "admin-musicians-profiles" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Musician Profiles");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  return moderationListData("musician", new URL(request.url).searchParams);
}

export default function AdminMusicianProfiles({ loaderData }: Route.ComponentProps) {
  return <ModerationListPage {...loaderData} />;
}
