import { apiError, requireApiMember } from "~/modules/api/api.server";
import { memberDashboardProjects, memberDashboardStats, memberDashboardWorkRequests } from "~/modules/dashboard/member-dashboard.server";
import { loadDashboardProfiles } from "~/modules/members/member-area.server";
import type { Route } from "./+types/api.members.$id.dashboard.$section";

/** GET /api/members/{id}/dashboard/{stats|profiles|projects|work-requests}. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { memberId } = await requireApiMember(context, params.id);
  switch (params.section) {
    case "stats":
      return Response.json({ data: await memberDashboardStats(memberId) });
    case "profiles":
      return Response.json({ data: await loadDashboardProfiles(memberId) });
    case "projects":
      return Response.json(await memberDashboardProjects(memberId));
    case "work-requests":
      return Response.json(await memberDashboardWorkRequests(memberId));
    default:
      throw apiError(404, "Not found.");
  }
}
