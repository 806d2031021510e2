import { pageTitle } from "~/components/page-title";
import { PublicProfilePage } from "~/modules/profiles/public-page";
import { publicPageLoader } from "~/modules/profiles/public-page.server";
import type { Route } from "./+types/admin.music-producers.$username";

export { PublicPageErrorBoundary as ErrorBoundary } from "~/modules/profiles/public-page";

export const handle = { routeName: "admin-music-producers-show" };

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  error ? pageTitle(matches, "Not Found") : pageTitle(matches, loaderData?.profile.name, "Music Producer");

export const loader = (args: Route.LoaderArgs) => publicPageLoader(args, "music_producer", "admin");

export default function AdminMusicProducerPage({ loaderData }: Route.ComponentProps) {
  return <PublicProfilePage data={loaderData} />;
}
