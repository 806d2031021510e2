import { pageTitle } from "~/components/page-title";
import { DirectoryPage } from "~/modules/profiles/directory-page";
import { adminDirectoryLoader } from "~/modules/profiles/directory-route.server";
import type { Route } from "./+types/admin.music-producers._index";

// An index route, not `admin.music-producers.tsx`: that file would become the layout of `admin.music-producers.$username` and `admin.music-producers.profiles`.
export const handle = { routeName: "admin-music-producers" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Music Producer Pages");

export const loader = (args: Route.LoaderArgs) => adminDirectoryLoader(args, "music_producer");

export default function AdminMusicProducerPages({ loaderData }: Route.ComponentProps) {
  return <DirectoryPage data={loaderData} />;
}
