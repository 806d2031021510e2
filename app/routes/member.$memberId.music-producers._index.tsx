import { pageTitle } from "~/components/page-title";
import { DirectoryPage } from "~/modules/profiles/directory-page";
import { memberDirectoryAction, memberDirectoryLoader } from "~/modules/profiles/directory-route.server";
import type { Route } from "./+types/member.$memberId.music-producers._index";

// An index route, not `member.$memberId.music-producers.tsx`: that file would become the layout of `member.$memberId.music-producers.$username` and `member.$memberId.music-producers.profiles`.
export const handle = { routeName: "member-music-producers" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Music Producer Pages");

export const loader = (args: Route.LoaderArgs) => memberDirectoryLoader(args, "music_producer");

export const action = (args: Route.ActionArgs) => memberDirectoryAction(args, "music_producer");

export default function MemberMusicProducerPages({ loaderData }: Route.ComponentProps) {
  return <DirectoryPage data={loaderData} />;
}
