import { pageTitle } from "~/components/page-title";
import { DirectoryPage } from "~/modules/profiles/directory-page";
import { adminDirectoryLoader } from "~/modules/profiles/directory-route.server";
import type { Route } from "./+types/admin.artists._index";

// An index route, not `admin.artists.tsx`: that file would become the layout of `admin.artists.$username` and `admin.artists.profiles`.
export const handle = { routeName: "admin-artists" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Artist Pages");

export const loader = (args: Route.LoaderArgs) => adminDirectoryLoader(args, "artist");

export default function AdminArtistPages({ loaderData }: Route.ComponentProps) {
  return <DirectoryPage data={loaderData} />;
}
