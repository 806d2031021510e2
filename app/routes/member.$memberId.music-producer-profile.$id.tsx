import { pageTitle } from "~/components/page-title";
import { ProfileEditorPage } from "~/modules/profiles/profile-editor-page";
import { profileEditorAction, profileEditorLoader } from "~/modules/profiles/profile-editor-route.server";
import type { Route } from "./+types/member.$memberId.music-producer-profile.$id";

export const handle = { routeName: "member-music-producer-profile" };

export const meta: Route.MetaFunction = ({ matches, data }) => pageTitle(matches, data?.profile.name, "Music Producer Profile");

export const loader = (args: Route.LoaderArgs) => profileEditorLoader(args, "music_producer", "member");

export const action = (args: Route.ActionArgs) => profileEditorAction(args, "music_producer", "member");

export default function ProfileEditorPageRoute({ loaderData }: Route.ComponentProps) {
  return <ProfileEditorPage loaderData={loaderData} />;
}
