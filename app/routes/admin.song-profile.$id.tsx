import { pageTitle } from "~/components/page-title";
import { SongProfilePage } from "~/modules/catalog/songs/song-pages";
import { songProfileAction, songProfileLoader } from "~/modules/catalog/songs/song-routes.server";
import type { Route } from "./+types/admin.song-profile.$id";

export const handle = { routeName: "admin-song-profile" };

export const meta: Route.MetaFunction = ({ matches, data }) => pageTitle(matches, data && data.mode === "edit" ? data.song.title : undefined, "Song");

export const loader = (args: Route.LoaderArgs) => songProfileLoader(args, "admin");

export const action = (args: Route.ActionArgs) => songProfileAction(args, "admin");

export default function SongProfilePageRoute({ loaderData }: Route.ComponentProps) {
  return <SongProfilePage loaderData={loaderData} />;
}
