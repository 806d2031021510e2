import { pageTitle } from "~/components/page-title";
import { CreditInvitePage } from "~/modules/catalog/credits/credit-invite-page";
import { creditInviteAction, creditInviteLoader } from "~/modules/catalog/credits/credit-invite-route.server";
import type { Route } from "./+types/song-producer-invite.$id";

export const handle = { routeName: "song-producer-invite" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Producer credit");

export const loader = ({ request, params, context }: Route.LoaderArgs) => creditInviteLoader(request, context, params.id, "producer");

export const action = ({ request, params, context }: Route.ActionArgs) => creditInviteAction(request, context, params.id, "producer");

export default function SongCreditInviteRoute({ loaderData }: Route.ComponentProps) {
  return <CreditInvitePage data={loaderData} title="Producer credit" />;
}
