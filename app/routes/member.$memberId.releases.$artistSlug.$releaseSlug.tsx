import { pageTitle } from "~/components/page-title";
import { MemberReleaseStatusPage } from "~/modules/catalog/releases/pages/member-release-status-page";
import { memberReleaseStatusAction, memberReleaseStatusLoader } from "~/modules/catalog/releases/release-routes.server";
import type { Route } from "./+types/member.$memberId.releases.$artistSlug.$releaseSlug";

export const handle = { routeName: "member-release-status" };

export const meta: Route.MetaFunction = ({ matches, data }) => pageTitle(matches, data?.release.title, "Release status");

export const loader = (args: Route.LoaderArgs) => memberReleaseStatusLoader(args);

export const action = (args: Route.ActionArgs) => memberReleaseStatusAction(args);

export default function MemberReleaseStatusPageRoute({ loaderData }: Route.ComponentProps) {
  return <MemberReleaseStatusPage loaderData={loaderData} />;
}
