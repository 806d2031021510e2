import { requireApiAdmin } from "~/modules/api/api.server";
import { systemFinancialSummary } from "~/modules/dashboard/admin-dashboard.server";
import type { Route } from "./+types/api.admin.dashboard.system-financial-summary";

export async function loader({ context }: Route.LoaderArgs) {
  await requireApiAdmin(context);
  return Response.json({ data: await systemFinancialSummary() });
}
