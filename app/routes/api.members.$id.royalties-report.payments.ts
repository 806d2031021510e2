import { requireApiMember } from "~/modules/api/api.server";
import { listMemberPayoutRequests, paymentRequestJson } from "~/modules/payouts/payouts.server";
import type { Route } from "./+types/api.members.$id.royalties-report.payments";

/**
 * GET /api/members/{id}/royalties-report/payments: the member's payout
 * requests and payments, newest first, as a `{ data }` list: status, amount, method fee, withholding and net
 * (six-decimal strings), the transfer reference or the rejection reason, their dates, and the journal entries
 * behind them (app/modules/payouts/payouts.server.ts). The member themself or an admin only.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { user, memberId } = requireApiMember(context, params.id);
  const data = (await listMemberPayoutRequests(user, memberId)).map(paymentRequestJson);
  return Response.json({ data }, { headers: { "Cache-Control": "private, no-store" } });
}
