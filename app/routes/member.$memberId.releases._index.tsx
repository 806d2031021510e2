import { pageTitle } from "~/components/page-title";
import { MemberReleasesPage } from "~/modules/catalog/releases/pages/member-releases-page";
import { memberReleasesLoader } from "~/modules/catalog/releases/release-routes.server";
import type { Route } from "./+types/member.$memberId.releases._index";

export const handle = { routeName: "member-releases" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Releases");

export const loader = (args: Route.LoaderArgs) => memberReleasesLoader(args);

export default function MemberReleasesPageRoute({ loaderData }: Route.ComponentProps) {
  return <MemberReleasesPage loaderData={loaderData} />;
}
