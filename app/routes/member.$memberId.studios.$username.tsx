import { pageTitle } from "~/components/page-title";
import { PublicProfilePage } from "~/modules/profiles/public-page";
import { publicPageLoader } from "~/modules/profiles/public-page.server";
import type { Route } from "./+types/member.$memberId.studios.$username";

export { PublicPageErrorBoundary as ErrorBoundary } from "~/modules/profiles/public-page";

export const handle = { routeName: "member-studios-show" };

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  error ? pageTitle(matches, "Not Found") : pageTitle(matches, loaderData?.profile.name, "Studio");

export const loader = (args: Route.LoaderArgs) => publicPageLoader(args, "studio", "member");

export default function MemberStudioPage({ loaderData }: Route.ComponentProps) {
  return <PublicProfilePage data={loaderData} />;
}
