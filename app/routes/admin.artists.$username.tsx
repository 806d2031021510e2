import { pageTitle } from "~/components/page-title";
import { PublicProfilePage } from "~/modules/profiles/public-page";
import { publicPageLoader } from "~/modules/profiles/public-page.server";
import type { Route } from "./+types/admin.artists.$username";

export { PublicPageErrorBoundary as ErrorBoundary } from "~/modules/profiles/public-page";

export const handle = { routeName: "admin-artists-show" };

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  error ? pageTitle(matches, "Not Found") : pageTitle(matches, loaderData?.profile.name, "Artist");

export const loader = (args: Route.LoaderArgs) => publicPageLoader(args, "artist", "admin");

export default function AdminArtistPage({ loaderData }: Route.ComponentProps) {
  return <PublicProfilePage data={loaderData} />;
}
