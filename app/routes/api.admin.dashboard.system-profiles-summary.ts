import { requireApiAdmin } from "~/modules/api/api.server";
import { systemProfilesSummary } from "~/modules/dashboard/admin-dashboard.server";
import type { Route } from "./+types/api.admin.dashboard.system-profiles-summary";

export async function loader({ request }: Route.LoaderArgs) {
  await requireApiAdmin(request);
  return Response.json({ data: await systemProfilesSummary() });
}
