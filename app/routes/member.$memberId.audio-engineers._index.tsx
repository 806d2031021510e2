import { pageTitle } from "~/components/page-title";
import { DirectoryPage } from "~/modules/profiles/directory-page";
import { memberDirectoryAction, memberDirectoryLoader } from "~/modules/profiles/directory-route.server";
import type { Route } from "./+types/member.$memberId.audio-engineers._index";

// An index route, not `member.$memberId.audio-engineers.tsx`: that file would become the layout of `member.$memberId.audio-engineers.$username` and `member.$memberId.audio-engineers.profiles`.
export const handle = { routeName: "member-audio-engineers" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Audio Engineer Pages");

export const loader = (args: Route.LoaderArgs) => memberDirectoryLoader(args, "audio_engineer");

export const action = (args: Route.ActionArgs) => memberDirectoryAction(args, "audio_engineer");

export default function MemberAudioEngineerPages({ loaderData }: Route.ComponentProps) {
  return <DirectoryPage data={loaderData} />;
}
