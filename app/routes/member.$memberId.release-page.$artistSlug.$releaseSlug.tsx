import { pageTitle } from "~/components/page-title";
import { ReleasePage } from "~/modules/catalog/release-page/release-page";
import { releasePageLoader } from "~/modules/catalog/release-page/release-page.server";
import type { Route } from "./+types/member.$memberId.release-page.$artistSlug.$releaseSlug";

export const handle = { routeName: "member-release-page" };

export const meta: Route.MetaFunction = ({ matches, data }) => pageTitle(matches, data?.release.title, "Release");

export const loader = (args: Route.LoaderArgs) => releasePageLoader(args, "member");

export default function ReleasePageRoute({ loaderData }: Route.ComponentProps) {
  return <ReleasePage loaderData={loaderData} />;
}
