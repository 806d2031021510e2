import { pageTitle } from "~/components/page-title";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { managersPageAction, managersPageData } from "~/modules/industry/industry-route.server";
import { ManagersPage } from "~/modules/industry/managers-page";
import type { Route } from "./+types/admin.managers";

export const handle = { routeName: "admin-managers" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Managers");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  return managersPageData(request);
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdminUser(request, context);
  return managersPageAction(request);
}

export default function ManagersPageRoute({ loaderData }: Route.ComponentProps) {
  return <ManagersPage loaderData={loaderData} />;
}
