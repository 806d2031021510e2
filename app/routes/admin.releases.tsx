import { pageTitle } from "~/components/page-title";
import { AdminReleasesPage } from "~/modules/catalog/releases/pages/admin-releases-page";
import { adminReleasesLoader } from "~/modules/catalog/releases/release-routes.server";
import type { Route } from "./+types/admin.releases";

export const handle = { routeName: "admin-releases" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Releases");

export const loader = (args: Route.LoaderArgs) => adminReleasesLoader(args);

export default function AdminReleasesPageRoute({ loaderData }: Route.ComponentProps) {
  return <AdminReleasesPage loaderData={loaderData} />;
}
