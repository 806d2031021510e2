import { data } from "react-router";
import { NotFound } from "~/components/not-found";
import { pageTitle } from "~/components/page-title";
import { requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/member.$memberId.$";

export const handle = { routeName: "member-not-found" };

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireMemberAreaAccess(request, context, params.memberId);
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Not Found");

export default function MemberNotFound({ params }: Route.ComponentProps) {
  return <NotFound homeHref={`/member/${params.memberId}/dashboard`} homeLabel="Back to the dashboard" />;
}
