import { data } from "react-router";
import { NotFound } from "~/components/not-found";
import { pageTitle } from "~/components/page-title";
import { requireAdminUser } from "~/modules/accounts/guards.server";
import type { Route } from "./+types/admin.$";

export const handle = { routeName: "admin-not-found" };

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdminUser(request, context);
  return data(null, { status: 404 });
}

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Not Found");

export default function AdminNotFound() {
  return <NotFound homeHref="/admin/dashboard" homeLabel="Back to the dashboard" />;
}
