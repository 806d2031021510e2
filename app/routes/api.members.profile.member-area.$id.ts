import { apiError, requireApiMember } from "~/modules/api/api.server";
import { loadMemberAreaUser } from "~/modules/members/member-area.server";
import type { Route } from "./+types/api.members.profile.member-area.$id";

/** The member whose area is open, with the dashboard profiles. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { memberId } = await requireApiMember(context, params.id);
  const member = await loadMemberAreaUser(context, memberId);
  if (!member) throw apiError(404, "Not found.");
  return Response.json({ data: member });
}
