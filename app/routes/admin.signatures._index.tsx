import { pageTitle } from "~/components/page-title";
import { AdminSignaturesPage } from "~/modules/legal/signatures/signatures-page";
import { adminSignaturesLoader } from "~/modules/legal/signatures/signatures-routes.server";
import type { Route } from "./+types/admin.signatures._index";

export const handle = { routeName: "admin-signatures" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Signatures");

export const loader = (args: Route.LoaderArgs) => adminSignaturesLoader(args);

export default function AdminSignaturesRoute({ loaderData }: Route.ComponentProps) {
  return <AdminSignaturesPage loaderData={loaderData} />;
}
