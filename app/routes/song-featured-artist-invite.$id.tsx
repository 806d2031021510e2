import { pageTitle } from "~/components/page-title";
import { CreditInvitePage } from "~/modules/catalog/credits/credit-invite-page";
import { creditInviteAction, creditInviteLoader } from "~/modules/catalog/credits/credit-invite-route.server";
import type { Route } from "./+types/song-featured-artist-invite.$id";

export const handle = { routeName: "song-featured-artist-invite" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Featured artist credit");

export const loader = ({ request, params, context }: Route.LoaderArgs) => creditInviteLoader(request, context, params.id, "featured_artist");

export const action = ({ request, params, context }: Route.ActionArgs) => creditInviteAction(request, context, params.id, "featured_artist");

export default function SongCreditInviteRoute({ loaderData }: Route.ComponentProps) {
  return <CreditInvitePage data={loaderData} title="Featured artist credit" />;
}
