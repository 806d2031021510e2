import { pageTitle } from "~/components/page-title";
import { ProfileEditorPage } from "~/modules/profiles/profile-editor-page";
import { profileEditorAction, profileEditorLoader } from "~/modules/profiles/profile-editor-route.server";
import type { Route } from "./+types/member.$memberId.studio-profile.$id";

export const handle = { routeName: "member-studio-profile" };

export const meta: Route.MetaFunction = ({ matches, data }) => pageTitle(matches, data?.profile.name, "Studio Profile");

export const loader = (args: Route.LoaderArgs) => profileEditorLoader(args, "studio", "member");

export const action = (args: Route.ActionArgs) => profileEditorAction(args, "studio", "member");

export default function ProfileEditorPageRoute({ loaderData }: Route.ComponentProps) {
  return <ProfileEditorPage loaderData={loaderData} />;
}
