import { pageTitle } from "~/components/page-title";
import { DirectoryPage } from "~/modules/profiles/directory-page";
import { memberDirectoryAction, memberDirectoryLoader } from "~/modules/profiles/directory-route.server";
import type { Route } from "./+types/member.$memberId.artists._index";

// An index route, not `member.$memberId.artists.tsx`: that file would become the layout of `member.$memberId.artists.$username` and `member.$memberId.artists.profiles`.
export const handle = { routeName: "member-artists" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Artist Pages");

export const loader = (args: Route.LoaderArgs) => memberDirectoryLoader(args, "artist");

export const action = (args: Route.ActionArgs) => memberDirectoryAction(args, "artist");

export default function MemberArtistPages({ loaderData }: Route.ComponentProps) {
  return <DirectoryPage data={loaderData} />;
}
