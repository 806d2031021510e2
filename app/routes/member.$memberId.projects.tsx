import { pageTitle } from "~/components/page-title";
import { MemberProjectsPage } from "~/modules/marketplace/projects/project-pages";
import { memberProjectsLoader } from "~/modules/marketplace/projects/project-routes.server";
import type { Route } from "./+types/member.$memberId.projects";

export const handle = { routeName: "member-projects" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "Projects");

export const loader = (args: Route.LoaderArgs) => memberProjectsLoader(args);

export default function MemberProjectsRoute({ loaderData }: Route.ComponentProps) {
  return <MemberProjectsPage loaderData={loaderData} />;
}
