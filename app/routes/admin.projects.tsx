import { pageTitle } from "~/components/page-title";
import { AdminProjectsPage } from "~/modules/marketplace/projects/project-pages";
import { adminProjectsLoader } from "~/modules/marketplace/projects/project-routes.server";
import type { Route } from "./+types/admin.projects";

export const handle = { routeName: "admin-projects" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Projects");

export const loader = (args: Route.LoaderArgs) => adminProjectsLoader(args);

export default function AdminProjectsRoute({ loaderData }: Route.ComponentProps) {
  return <AdminProjectsPage loaderData={loaderData} />;
}
