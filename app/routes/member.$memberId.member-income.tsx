import { pageTitle } from "~/components/page-title";
import { Section } from "~/modules/catalog/releases/release-pages";
import { memberOfArea } from "~/modules/members/member-area.server";
import { SharesTable } from "~/modules/splits/shares-section";
import { memberShares } from "~/modules/splits/split-sheet.server";
import type { Route } from "./+types/member.$memberId.member-income";

export const handle = { routeName: "member-income" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "Income & Shares");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const member = await memberOfArea(request, context, params.memberId);
  return { memberId: member.id, shares: await memberShares(member) };
}

export default function MemberIncome({ loaderData }: Route.ComponentProps) {
  return (
    <div className="mx-auto w-full max-w-5xl space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Income &amp; Shares</h1>
      <Section title="Shares" id="shares" description="Your share of each song's master royalties, from its split sheet. Sales are shared by the split in force on the first day of their period.">
        <SharesTable memberId={loaderData.memberId} shares={loaderData.shares} />
      </Section>
    </div>
  );
}
