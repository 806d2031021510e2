import { redirect } from "react-router";
import { requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/member.$memberId._index";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { memberId } = await requireMemberAreaAccess(request, context, params.memberId);
  return redirect(`/member/${memberId}/dashboard`);
}
