import { pageTitle } from "~/components/page-title";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { ModerationListPage } from "~/modules/profiles/moderation-list-page";
import { moderationListData } from "~/modules/profiles/moderation-list.server";
import type { Route } from "./+types/admin.studios.profiles";

export const handle = { routeName: "admin-studios-profiles" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Studio Profiles");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  return moderationListData("studio", new URL(request.url).searchParams);
}

export default function AdminStudioProfiles({ loaderData }: Route.ComponentProps) {
  return <ModerationListPage {...loaderData} />;
}
