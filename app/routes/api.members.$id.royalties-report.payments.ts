import { requireApiMember } from "~/modules/api/api.server";
import { memberPayments } from "~/modules/ledger/reports/income.server";
import type { Route } from "./+types/api.members.$id.royalties-report.payments";

/**
 * GET /api/members/{id}/royalties-report/payments (spec section 7): the member's payout requests and payments
 * as the ledger records them (their payouts_reserved and payouts_paid postings, newest first), as a `{ data }`
 * list. Empty until the payouts issue posts to those accounts. The member themself or an admin only.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { memberId } = requireApiMember(context, params.id);
  const data = await memberPayments(memberId);
  return Response.json({ data }, { headers: { "Cache-Control": "private, no-store" } });
}
