import { pageTitle } from "~/components/page-title";
import { MemberReleaseProfilePage } from "~/modules/catalog/releases/pages/member-release-profile-page";
import { memberReleaseProfileAction, memberReleaseProfileLoader } from "~/modules/catalog/releases/release-routes.server";
import type { Route } from "./+types/member.$memberId.release-profile.$id";

export const handle = { routeName: "member-release-profile" };

export const meta: Route.MetaFunction = ({ matches, data }) => pageTitle(matches, data && data.mode === "edit" ? data.release.title : "New release", "Release");

export const loader = (args: Route.LoaderArgs) => memberReleaseProfileLoader(args);

export const action = (args: Route.ActionArgs) => memberReleaseProfileAction(args);

export default function MemberReleaseProfilePageRoute({ loaderData }: Route.ComponentProps) {
  return <MemberReleaseProfilePage loaderData={loaderData} />;
}
