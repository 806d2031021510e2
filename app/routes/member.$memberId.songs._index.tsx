import { pageTitle } from "~/components/page-title";
import { SongsPage } from "~/modules/catalog/songs/song-pages";
import { songsLoader } from "~/modules/catalog/songs/song-routes.server";
import type { Route } from "./+types/member.$memberId.songs._index";

export const handle = { routeName: "member-songs" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "Songs");

export const loader = (args: Route.LoaderArgs) => songsLoader(args, "member");

export default function SongsPageRoute({ loaderData }: Route.ComponentProps) {
  return <SongsPage loaderData={loaderData} />;
}
