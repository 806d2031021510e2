import { pageTitle } from "~/components/page-title";
import { ReleasePage } from "~/modules/catalog/release-page/release-page";
import { releasePageLoader } from "~/modules/catalog/release-page/release-page.server";
import type { Route } from "./+types/admin.release-page.$artistSlug.$releaseSlug";

export const handle = { routeName: "admin-release-page" };

export const meta: Route.MetaFunction = ({ matches, data }) => pageTitle(matches, data?.release.title, "Release");

export const loader = (args: Route.LoaderArgs) => releasePageLoader(args, "admin");

export default function ReleasePageRoute({ loaderData }: Route.ComponentProps) {
  return <ReleasePage loaderData={loaderData} />;
}
