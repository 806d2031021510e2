import { pageTitle } from "~/components/page-title";
import { MemberAffiliatePage } from "~/modules/affiliates/affiliate-pages";
import { memberAffiliateLoader } from "~/modules/affiliates/affiliate-routes.server";
import type { Route } from "./+types/member.$memberId.affiliate.$id";

export const handle = { routeName: "member-affiliate" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "Affiliate");

export const loader = (args: Route.LoaderArgs) => memberAffiliateLoader(args);

export default function MemberAffiliateRoute({ loaderData }: Route.ComponentProps) {
  return <MemberAffiliatePage loaderData={loaderData} />;
}
