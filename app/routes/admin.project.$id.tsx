import { pageTitle } from "~/components/page-title";
import { ProjectPage } from "~/modules/marketplace/projects/project-pages";
import { adminProjectAction, adminProjectLoader } from "~/modules/marketplace/projects/project-routes.server";
import type { Route } from "./+types/admin.project.$id";

export const handle = { routeName: "admin-project" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageTitle(matches, loaderData ? `Project #${loaderData.project.id}` : undefined, "Project");

export const loader = (args: Route.LoaderArgs) => adminProjectLoader(args);

export const action = (args: Route.ActionArgs) => adminProjectAction(args);

export default function AdminProjectRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <ProjectPage loaderData={loaderData} actionData={actionData} />;
}
