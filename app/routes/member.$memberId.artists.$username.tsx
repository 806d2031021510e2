import { pageTitle } from "~/components/page-title";
import { PublicProfilePage } from "~/modules/profiles/public-page";
import { publicPageAction, publicPageLoader } from "~/modules/profiles/public-page.server";
import type { Route } from "./+types/member.$memberId.artists.$username";

export { PublicPageErrorBoundary as ErrorBoundary } from "~/modules/profiles/public-page";

export const handle = { routeName: "member-artists-show" };

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  error ? pageTitle(matches, "Not Found") : pageTitle(matches, loaderData?.profile.name, "Artist");

export const loader = (args: Route.LoaderArgs) => publicPageLoader(args, "artist", "member");

// A band member without editing rights leaves the band from here.
export const action = (args: Route.ActionArgs) => publicPageAction(args, "artist");

export default function MemberArtistPage({ loaderData }: Route.ComponentProps) {
  return <PublicProfilePage data={loaderData} />;
}
