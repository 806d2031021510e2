import { pageTitle } from "~/components/page-title";
import { SplitInvitePage } from "~/modules/splits/split-invite-page";
import { splitInviteAction, splitInviteLoader } from "~/modules/splits/split-invite.server";
import type { Route } from "./+types/share-split-proposals.create-account";

export const handle = { routeName: "share-split-proposals-create-account" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Split proposal");

export const loader = ({ request, context }: Route.LoaderArgs) => splitInviteLoader(request, context);

export const action = ({ request, context }: Route.ActionArgs) => splitInviteAction(request, context);

export default function SplitInviteRoute({ loaderData }: Route.ComponentProps) {
  return <SplitInvitePage data={loaderData} />;
}
