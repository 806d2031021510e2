import { pageTitle } from "~/components/page-title";
import { PublicProfilePage } from "~/modules/profiles/public-page";
import { publicPageLoader } from "~/modules/profiles/public-page.server";
import type { Route } from "./+types/member.$memberId.musicians.$username";

export { PublicPageErrorBoundary as ErrorBoundary } from "~/modules/profiles/public-page";

export const handle = { routeName: "member-musicians-show" };

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  error ? pageTitle(matches, "Not Found") : pageTitle(matches, loaderData?.profile.name, "Musician");

export const loader = (args: Route.LoaderArgs) => publicPageLoader(args, "musician", "member");

export default function MemberMusicianPage({ loaderData }: Route.ComponentProps) {
  return <PublicProfilePage data={loaderData} />;
}
