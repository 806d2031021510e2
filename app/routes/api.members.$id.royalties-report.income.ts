import { apiError, requireApiMember } from "~/modules/api/api.server";
import { incomeReportJson, memberIncome } from "~/modules/ledger/reports/income.server";
import type { Route } from "./+types/api.members.$id.royalties-report.income";

/**
 * GET /api/members/{id}/royalties-report/income: the member's totals as
 * six-decimal strings, for the member themself or an admin; anyone else gets 404 as if it did not exist.
 * The figures are per member and private: browsers and proxies must not keep them.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { memberId } = requireApiMember(context, params.id);
  const income = await memberIncome(memberId);
  if (!income) throw apiError(404, "Not found.");
  return Response.json({ data: incomeReportJson(income) }, { headers: { "Cache-Control": "private, no-store" } });
}
