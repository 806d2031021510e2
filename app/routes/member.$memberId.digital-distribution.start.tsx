import { pageTitle } from "~/components/page-title";
import { DistributionStartPage } from "~/modules/catalog/distribution/distribution-page";
import { distributionAction, distributionLoader } from "~/modules/catalog/distribution/distribution.server";
import { DISTRIBUTION_STEPS } from "~/modules/catalog/distribution/distribution-steps";
import type { Route } from "./+types/member.$memberId.digital-distribution.start";

export const handle = { routeName: "member-digital-distribution-start" };

export const meta: Route.MetaFunction = ({ matches, data }) =>
  pageTitle(matches, data ? DISTRIBUTION_STEPS.find((s) => s.key === data.step)?.label : undefined, "Release Music");

export const loader = (args: Route.LoaderArgs) => distributionLoader(args);

export const action = (args: Route.ActionArgs) => distributionAction(args);

export default function DistributionStartPageRoute({ loaderData }: Route.ComponentProps) {
  return <DistributionStartPage loaderData={loaderData} />;
}
