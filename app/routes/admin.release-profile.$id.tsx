import { pageTitle } from "~/components/page-title";
import { AdminReleaseProfilePage } from "~/modules/catalog/releases/pages/admin-release-profile-page";
import { adminReleaseProfileAction, adminReleaseProfileLoader } from "~/modules/catalog/releases/release-routes.server";
import type { Route } from "./+types/admin.release-profile.$id";

export const handle = { routeName: "admin-release-profile" };

export const meta: Route.MetaFunction = ({ matches, data }) => pageTitle(matches, data?.release.title, "Release review");

export const loader = (args: Route.LoaderArgs) => adminReleaseProfileLoader(args);

export const action = (args: Route.ActionArgs) => adminReleaseProfileAction(args);

export default function AdminReleaseProfilePageRoute({ loaderData }: Route.ComponentProps) {
  return <AdminReleaseProfilePage loaderData={loaderData} />;
}
