import { pageTitle } from "~/components/page-title";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { venuesPageAction, venuesPageData } from "~/modules/industry/industry-route.server";
import { VenuesPage } from "~/modules/industry/venues-page";
import type { Route } from "./+types/admin.venues";

export const handle = { routeName: "admin-venues" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Venues");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  return venuesPageData(request);
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdminUser(request, context);
  return venuesPageAction(request);
}

export default function VenuesPageRoute({ loaderData }: Route.ComponentProps) {
  return <VenuesPage loaderData={loaderData} />;
}
