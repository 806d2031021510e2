import { pageTitle } from "~/components/page-title";
import { DirectoryPage } from "~/modules/profiles/directory-page";
import { memberDirectoryAction, memberDirectoryLoader } from "~/modules/profiles/directory-route.server";
import type { Route } from "./+types/member.$memberId.studios._index";

// An index route, not `member.$memberId.studios.tsx`: that file would become the layout of `member.$memberId.studios.$username` and `member.$memberId.studios.profiles`.
export const handle = { routeName: "member-studios" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Studio Pages");

export const loader = (args: Route.LoaderArgs) => memberDirectoryLoader(args, "studio");

export const action = (args: Route.ActionArgs) => memberDirectoryAction(args, "studio");

export default function MemberStudioPages({ loaderData }: Route.ComponentProps) {
  return <DirectoryPage data={loaderData} />;
}
