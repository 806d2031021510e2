import { pageTitle } from "~/components/page-title";
import { ProfileEditorPage } from "~/modules/profiles/profile-editor-page";
import { profileEditorAction, profileEditorLoader } from "~/modules/profiles/profile-editor-route.server";
import type { Route } from "./+types/admin.musicians-profile.$id";

export const handle = { routeName: "admin-musicians-profile" };

export const meta: Route.MetaFunction = ({ matches, data }) => pageTitle(matches, data?.profile.name, "Musician Profile");

export const loader = (args: Route.LoaderArgs) => profileEditorLoader(args, "musician", "admin");

export const action = (args: Route.ActionArgs) => profileEditorAction(args, "musician", "admin");

export default function ProfileEditorPageRoute({ loaderData }: Route.ComponentProps) {
  return <ProfileEditorPage loaderData={loaderData} />;
}
