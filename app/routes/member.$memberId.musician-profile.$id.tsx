import { pageTitle } from "~/components/page-title";
import { ProfileEditorPage } from "~/modules/profiles/profile-editor-page";
import { profileEditorAction, profileEditorLoader } from "~/modules/profiles/profile-editor-route.server";
import type { Route } from "./+types/member.$memberId.musician-profile.$id";

export const handle = { routeName: "member-musician-profile" };

export const meta: Route.MetaFunction = ({ matches, data }) => pageTitle(matches, data?.profile.name, "Musician Profile");

export const loader = (args: Route.LoaderArgs) => profileEditorLoader(args, "musician", "member");

export const action = (args: Route.ActionArgs) => profileEditorAction(args, "musician", "member");

export default function ProfileEditorPageRoute({ loaderData }: Route.ComponentProps) {
  return <ProfileEditorPage loaderData={loaderData} />;
}
