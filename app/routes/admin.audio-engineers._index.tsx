import { pageTitle } from "~/components/page-title";
import { DirectoryPage } from "~/modules/profiles/directory-page";
import { adminDirectoryLoader } from "~/modules/profiles/directory-route.server";
import type { Route } from "./+types/admin.audio-engineers._index";

// An index route, not `admin.audio-engineers.tsx`: that file would become the layout of `admin.audio-engineers.$username` and `admin.audio-engineers.profiles`.
export const handle = { routeName: "admin-audio-engineers" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Audio Engineer Pages");

export const loader = (args: Route.LoaderArgs) => adminDirectoryLoader(args, "audio_engineer");

export default function AdminAudioEngineerPages({ loaderData }: Route.ComponentProps) {
  return <DirectoryPage data={loaderData} />;
}
