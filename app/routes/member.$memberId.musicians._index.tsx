import { pageTitle } from "~/components/page-title";
import { DirectoryPage } from "~/modules/profiles/directory-page";
import { memberDirectoryAction, memberDirectoryLoader } from "~/modules/profiles/directory-route.server";
import type { Route } from "./+types/member.$memberId.musicians._index";

// An index route, not `member.$memberId.musicians.tsx`: that file would become the layout of `member.$memberId.musicians.$username` and `member.$memberId.musicians.profiles`.
export const handle = { routeName: "member-musicians" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Musician Pages");

export const loader = (args: Route.LoaderArgs) => memberDirectoryLoader(args, "musician");

export const action = (args: Route.ActionArgs) => memberDirectoryAction(args, "musician");

export default function MemberMusicianPages({ loaderData }: Route.ComponentProps) {
  return <DirectoryPage data={loaderData} />;
}
