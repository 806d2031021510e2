import { pageTitle } from "~/components/page-title";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { ReferencePage } from "~/modules/reference/reference-page";
import { referencePageAction, referencePageData } from "~/modules/reference/reference-route.server";
import type { Route } from "./+types/admin.skills";

export const handle = { routeName: "admin-skills" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Skills");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  return referencePageData(request, "skill");
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdminUser(request, context);
  return referencePageAction(request, "skill");
}

export default function ReferencePageRoute({ loaderData }: Route.ComponentProps) {
  return <ReferencePage loaderData={loaderData} />;
}
