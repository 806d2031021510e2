import { pageTitle } from "~/components/page-title";
import { SuspenseQueuePage } from "~/modules/ledger/imports/sales-import-pages";
import { suspenseQueueAction, suspenseQueueLoader } from "~/modules/ledger/imports/sales-import-routes.server";
import type { Route } from "./+types/admin.suspense";

export const handle = { routeName: "admin-suspense" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, "Lines in suspense");

export const loader = (args: Route.LoaderArgs) => suspenseQueueLoader(args);
export const action = (args: Route.ActionArgs) => suspenseQueueAction(args);

export default function SuspenseQueueRoute({ loaderData }: Route.ComponentProps) {
  return <SuspenseQueuePage loaderData={loaderData} />;
}
