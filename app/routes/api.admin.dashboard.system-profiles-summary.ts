import { requireApiAdmin } from "~/modules/api/api.server";
import { systemProfilesSummary } from "~/modules/dashboard/admin-dashboard.server";
import type { Route } from "./+types/api.admin.dashboard.system-profiles-summary";

export async function loader({ context }: Route.LoaderArgs) {
  await requireApiAdmin(context);
  return Response.json({ data: await systemProfilesSummary() });
}
