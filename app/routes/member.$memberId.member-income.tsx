import type { ShouldRevalidateFunction } from "react-router";
import { pageTitle } from "~/components/page-title";
import { pageParam } from "~/components/pagination";
import { reuseUnlessChanged } from "~/components/revalidation";
import { parseId } from "~/modules/accounts/guards.server";
import { Section } from "~/modules/catalog/releases/pages/release-page-parts";
import { IncomeLinesTable, IncomeSection, IncomeTotals, StatementsTable } from "~/modules/ledger/reports/income-pages";
import { incomePageData, LINES_PAGE_SIZE, memberIncome, memberIncomeLines } from "~/modules/ledger/reports/income.server";
import { statementName } from "~/modules/ledger/reports/statement-name";
import { notFound } from "~/modules/http/route-errors.server";
import { memberOfArea } from "~/modules/members/member-area.server";
import { SharesTable } from "~/modules/splits/shares-section";
import { memberShares } from "~/modules/splits/split-sheet.server";
import type { Route } from "./+types/member.$memberId.member-income";

export const handle = { routeName: "member-income" };

export const meta: Route.MetaFunction = ({ matches }) => pageTitle(matches, undefined, "Income & Shares");

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const member = await memberOfArea(request, context, params.memberId);
  const url = new URL(request.url);
  const importId = parseId(url.searchParams.get("import"));
  const page = pageParam(url.searchParams.get("lines_page"));
  const [income, shares, lines] = await Promise.all([
    memberIncome(member.id, pageParam(url.searchParams.get("statements_page"))),
    memberShares(member),
    importId === null ? null : memberIncomeLines(member.id, importId, page),
  ]);
  if (!income) throw notFound();
  const data = incomePageData(income);
  return {
    memberId: member.id,
    income: data,
    shares,
    lines:
      lines && importId !== null
        ? {
            importId,
            name: lines.naming ? statementName(lines.naming) : null,
            statementId: lines.naming?.statementId ?? null,
            page,
            total: lines.total,
            pageSize: LINES_PAGE_SIZE,
            lines: lines.lines.map(({ lineAmountMicros, amountMicros, ...line }) => ({
              ...line,
              lineAmount: lineAmountMicros.toString(),
              amount: amountMicros.toString(),
            })),
          }
        : null,
  };
}

// The income report is cached per member: reused across navigations unless something was
// submitted or the member changed; a change of the lines shown (the query) reads again.
export const shouldRevalidate: ShouldRevalidateFunction = (args) =>
  args.currentUrl.pathname === args.nextUrl.pathname && args.currentUrl.search !== args.nextUrl.search ? true : reuseUnlessChanged(args, "memberId");

export default function MemberIncome({ loaderData }: Route.ComponentProps) {
  const { income, lines } = loaderData;
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Income &amp; Shares</h1>
      <IncomeTotals data={income} />
      <IncomeSection data={income} />
      <Section
        title="Shares"
        id="shares"
        description="Your share of each song's master royalties, from its split sheet. Sales are shared by the split in force on the first day of their period."
      >
        <SharesTable memberId={loaderData.memberId} shares={loaderData.shares} />
      </Section>
      <Section title="Statements" id="statements" description="The statements each amount came from, with your part of each. Open one to see its lines.">
        <StatementsTable data={income} />
      </Section>
      {lines ? (
        <Section title="Lines" id="lines" description="The statement lines behind the amount, with your share of each.">
          <IncomeLinesTable data={lines} />
        </Section>
      ) : null}
    </div>
  );
}
