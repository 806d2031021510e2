import { pageTitle } from "~/components/page-title";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { ModerationListPage } from "~/modules/profiles/moderation-list-page";
import { moderationListData } from "~/modules/profiles/moderation-list.server";
import type { Route } from "./+types/admin.artists.profiles";

export const handle = { routeName: "admin-artists-profiles" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Artist Profiles");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  return moderationListData("artist", new URL(request.url).searchParams);
}

export default function AdminArtistProfiles({ loaderData }: Route.ComponentProps) {
  return <ModerationListPage {...loaderData} />;
}
