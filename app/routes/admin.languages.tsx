import { pageTitle } from "~/components/page-title";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import { ReferencePage } from "~/modules/reference/reference-page";
import { referencePageAction, referencePageData } from "~/modules/reference/reference-route.server";
import type { Route } from "./+types/admin.languages";

export const handle = { routeName: "admin-languages" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Languages");

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  return referencePageData(request, "language");
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireAdminUser(request, context);
  return referencePageAction(request, "language");
}

export default function ReferencePageRoute({ loaderData }: Route.ComponentProps) {
  return <ReferencePage loaderData={loaderData} />;
}
