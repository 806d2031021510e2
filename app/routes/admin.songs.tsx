import { pageTitle } from "~/components/page-title";
import { SongsPage } from "~/modules/catalog/songs/song-pages";
import { songsLoader } from "~/modules/catalog/songs/song-routes.server";
import type { Route } from "./+types/admin.songs";

export const handle = { routeName: "admin-songs" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "Songs");

export const loader = (args: Route.LoaderArgs) => songsLoader(args, "admin");

export default function SongsPageRoute({ loaderData }: Route.ComponentProps) {
  return <SongsPage loaderData={loaderData} />;
}
