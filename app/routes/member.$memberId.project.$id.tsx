import { pageTitle } from "~/components/page-title";
import { ProjectPage } from "~/modules/marketplace/projects/project-pages";
import { memberProjectAction, memberProjectLoader } from "~/modules/marketplace/projects/project-routes.server";
import type { Route } from "./+types/member.$memberId.project.$id";

export const handle = { routeName: "member-project" };

export const meta: Route.MetaFunction = ({ matches, loaderData }) =>
  pageTitle(matches, loaderData ? `Project #${loaderData.project.id}` : undefined, "Project");

export const loader = (args: Route.LoaderArgs) => memberProjectLoader(args);

export const action = (args: Route.ActionArgs) => memberProjectAction(args);

export default function MemberProjectRoute({ loaderData, actionData }: Route.ComponentProps) {
  return <ProjectPage loaderData={loaderData} actionData={actionData} />;
}
