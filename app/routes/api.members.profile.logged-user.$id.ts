import { requireApiMember, apiError } from "~/modules/api/api.server";
import type { Route } from "./+types/api.members.profile.logged-user.$id";

/** The logged-in user. Only one's own id; anything else is 404. */
export async function loader({ params, context }: Route.LoaderArgs) {
  // The guard has loaded this user (with agreed_to_all_documents) already: no second query.
  const { user, loggedUser, memberId } = await requireApiMember(context, params.id);
  if (memberId !== user.id) throw apiError(404, "Not found.");
  return Response.json({ data: loggedUser });
}
