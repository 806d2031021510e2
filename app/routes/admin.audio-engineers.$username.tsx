import { pageTitle } from "~/components/page-title";
import { PublicProfilePage } from "~/modules/profiles/public-page";
import { publicPageLoader } from "~/modules/profiles/public-page.server";
import type { Route } from "./+types/admin.audio-engineers.$username";

export { PublicPageErrorBoundary as ErrorBoundary } from "~/modules/profiles/public-page";

export const handle = { routeName: "admin-audio-engineers-show" };

export const meta: Route.MetaFunction = ({ matches, loaderData, error }) =>
  error ? pageTitle(matches, "Not Found") : pageTitle(matches, loaderData?.profile.name, "Audio Engineer");

export const loader = (args: Route.LoaderArgs) => publicPageLoader(args, "audio_engineer", "admin");

export default function AdminAudioEngineerPage({ loaderData }: Route.ComponentProps) {
  return <PublicProfilePage data={loaderData} />;
}
