import { Link, useLocation } from "react-router";
import { ChartCard, EmptyState, MonthBarChart, PieChart, StatCard } from "~/components/charts";
import { DataTable } from "~/components/data-table";
import { Count, DateTime, Money, numberFormat } from "~/components/formatting";
import { useHydrated } from "~/components/hydrated";
import { pageHref, Pagination } from "~/components/pagination";
import type { IncomeSource } from "~/db/schema";
import { formatMicros, microsToCentsFloor } from "../money";

/**
 * Income & Shares (member-income) and the dashboard's income chart. Amounts arrive as micro-unit strings
 * (exact, whatever their size) and are shown in whole cents rounded down, the rule docs/money.md gives the
 * available balance, so every figure here is the API's six-decimal figure cut at the cent; the exact amount
 * is in the element's title and data-micros.
 */

export const SOURCE_LABELS: Record<IncomeSource, string> = {
  digital: "Digital",
  pro: "PRO",
  license: "Licence",
  marketplace: "Marketplace",
  affiliate: "Affiliate",
};
const ALWAYS_SHOWN: IncomeSource[] = ["digital", "pro", "license"];
const SOURCE_COLORS: Record<IncomeSource, string> = { digital: "#14532d", pro: "#0e7490", license: "#a16207", marketplace: "#6d28d9", affiliate: "#9f1239" };

type Micros = string;

export interface IncomePageData {
  memberId: number;
  earned: Micros;
  held: Micros;
  reserved: Micros;
  paidOut: Micros;
  availableCents: string;
  bySource: Record<IncomeSource, Micros>;
  byMonth: Array<{ month: string; bySource: Record<IncomeSource, Micros>; total: Micros }>;
  /** One page of the statements, newest first. */
  /** Named by source and period (statement-name.ts), with the statement's own reference when it has one. */
  statements: Array<{
    importId: number | null;
    name: string;
    statementId: string | null;
    kind: string | null;
    importedAt: string | null;
    postings: number;
    amount: Micros;
  }>;
  statementCount: number;
  statementsPage: number;
  statementsPageSize: number;
}

export interface IncomeLinesData {
  importId: number;
  name: string | null;
  statementId: string | null;
  page: number;
  total: number;
  pageSize: number;
  lines: Array<{
    lineId: number;
    lineNo: number;
    period: string;
    source: string;
    territory: string | null;
    releaseTitle: string | null;
    trackTitle: string | null;
    isrc: string | null;
    lineAmount: Micros;
    amount: Micros;
  }>;
}

/** An amount in micro-units, shown in cents rounded down, exact in its title. */
export function MicrosMoney({ micros }: { micros: Micros }) {
  const value = BigInt(micros);
  return (
    <span title={`${formatMicros(value)} USD`} data-micros={formatMicros(value)}>
      <Money cents={Number(microsToCentsFloor(value))} />
    </span>
  );
}

/**
 * An amount in micro-units shown whole (two to six decimals), where figures must add up on screen: the
 * journal's postings of an entry sum to zero exactly as shown, which cents rounded down would not.
 */
export function ExactMicrosMoney({ micros }: { micros: Micros }) {
  const hydrated = useHydrated();
  const exact = formatMicros(BigInt(micros));
  // Intl formats a decimal string without passing it through a float (ECMA-402 NumberFormat v3).
  const text = numberFormat(hydrated ? undefined : "en-US", { style: "currency", currency: "USD", minimumFractionDigits: 2, maximumFractionDigits: 6 }).format(
    exact as unknown as number,
  );
  return (
    <span title={`${exact} USD`} data-micros={exact}>
      {text}
    </span>
  );
}

function shownSources(data: Pick<IncomePageData, "bySource">): IncomeSource[] {
  const extra = (["marketplace", "affiliate"] as const).filter((s) => BigInt(data.bySource[s]) !== 0n);
  return [...ALWAYS_SHOWN, ...extra];
}

export function IncomeTotals({ data }: { data: IncomePageData }) {
  return (
    <div className="grid grid-cols-2 gap-3 lg:grid-cols-5" data-testid="income-totals">
      <StatCard label="Earned" value={<MicrosMoney micros={data.earned} />} hint="All income, every source" />
      <StatCard label="Held for pending parties" value={<MicrosMoney micros={data.held} />} hint="Yours once you accept the split" />
      <StatCard label="Reserved" value={<MicrosMoney micros={data.reserved} />} hint="Requested payouts in progress" />
      <StatCard label="Paid out" value={<MicrosMoney micros={data.paidOut} />} />
      <StatCard
        label="Available"
        value={
          <span data-micros={formatMicros(BigInt(data.availableCents) * 10_000n)}>
            <Money cents={Number(data.availableCents)} />
          </span>
        }
        hint="Earnings less reserved, in whole cents"
      />
    </div>
  );
}

/* ------------------------------------------------------------------ chart */

const centsOf = (micros: Micros) => Number(microsToCentsFloor(BigInt(micros)));

/** Income per month stacked by source (client-only, CHART.barHeight high), every month from the first. */
export function IncomeByMonthChart({ data }: { data: Pick<IncomePageData, "byMonth" | "bySource"> }) {
  const sources = shownSources(data);
  return (
    <MonthBarChart
      label="Income by month and source"
      format="cents"
      series={sources.map((s) => ({ key: s, label: SOURCE_LABELS[s], color: SOURCE_COLORS[s] }))}
      months={data.byMonth.map((m) => ({ month: m.month, values: Object.fromEntries(sources.map((s) => [s, centsOf(m.bySource[s])])) }))}
    />
  );
}

export function IncomeByMonthTable({ data }: { data: Pick<IncomePageData, "byMonth" | "bySource" | "earned"> }) {
  const sources = shownSources(data);
  type Row = (typeof data.byMonth)[number];
  return (
    <DataTable<Row>
      caption="Income by month and source"
      rows={[...data.byMonth].reverse()}
      rowKey={(r) => r.month}
      columns={[
        { key: "month", header: "Month", rowHeader: true, cell: (r) => r.month },
        ...sources.map((s) => ({ key: s, header: SOURCE_LABELS[s], align: "right" as const, cell: (r: Row) => <MicrosMoney micros={r.bySource[s]} /> })),
        { key: "total", header: "Total", align: "right" as const, cell: (r: Row) => <MicrosMoney micros={r.total} /> },
      ]}
    />
  );
}

export function IncomeSection({ data }: { data: IncomePageData }) {
  const sources = shownSources(data);
  if (data.byMonth.length === 0) {
    return (
      <ChartCard title="Income by month" description="Every amount comes from a statement line">
        <EmptyState title="No income yet">When a statement with your songs is imported, your share shows here, month by month.</EmptyState>
      </ChartCard>
    );
  }
  const slices = sources.map((s) => ({ id: s, label: SOURCE_LABELS[s], value: centsOf(data.bySource[s]), color: SOURCE_COLORS[s] })).filter((s) => s.value > 0);
  return (
    <div className="grid gap-4 xl:grid-cols-3">
      <div className="xl:col-span-2">
        <ChartCard title="Income by month" description="By the first month of each statement line's sale period">
          <IncomeByMonthChart data={data} />
          <div className="mt-4">
            <IncomeByMonthTable data={data} />
          </div>
        </ChartCard>
      </div>
      <ChartCard title="By source">
        {slices.length ? <PieChart label="Income by source" format="cents" slices={slices} legend={false} /> : null}
        <table className="mt-3 w-full text-sm" data-testid="income-by-source">
          <caption className="sr-only">Income by source</caption>
          <tbody>
            {sources.map((s) => (
              <tr key={s} className="border-b border-stone-100">
                <th scope="row" className="py-1.5 text-left font-medium">
                  <span aria-hidden="true" className="mr-2 inline-block size-2.5 rounded-sm" style={{ background: SOURCE_COLORS[s] }} />
                  {SOURCE_LABELS[s]}
                </th>
                <td className="py-1.5 text-right">
                  <MicrosMoney micros={data.bySource[s]} />
                </td>
              </tr>
            ))}
            <tr>
              <th scope="row" className="py-1.5 text-left font-semibold">
                Total
              </th>
              <td className="py-1.5 text-right font-semibold">
                <MicrosMoney micros={data.earned} />
              </td>
            </tr>
          </tbody>
        </table>
      </ChartCard>
    </div>
  );
}

const KIND_LABELS: Record<string, string> = { digital: "Digital", pro: "PRO", license: "Licence" };

/** "DistroKid · March 2026, statement DK-0042": the name and, when the statement has one, its reference. */
const statementTitle = (s: { name: string; statementId: string | null }) => (s.statementId ? `${s.name}, statement ${s.statementId}` : s.name);

/** The lines of a statement open below the table, on the statements page the member is on. */
function linesHref(search: string, importId: number): string {
  const params = new URLSearchParams(search);
  params.set("import", String(importId));
  params.delete("lines_page");
  return `?${params.toString()}#lines`;
}

export function StatementsTable({ data }: { data: IncomePageData }) {
  type Row = IncomePageData["statements"][number];
  const { search } = useLocation();
  const pageCount = Math.max(1, Math.ceil(data.statementCount / data.statementsPageSize));
  return (
    <div className="space-y-2">
      <DataTable<Row>
        caption="The statements your income came from"
        rows={data.statements}
        rowKey={(r) => r.importId ?? "other"}
        empty={
          <p className="text-sm text-stone-600">
            {data.statementCount > 0 ? (
              <>
                No statements on this page.{" "}
                <Link to={pageHref(search, 1, "statements_page")} className="font-medium text-brand-800 underline">
                  Go to the newest
                </Link>
              </>
            ) : (
              "No statement has paid you yet."
            )}
          </p>
        }
        columns={[
          {
            key: "file",
            header: "Statement",
            rowHeader: true,
            cell: (r) =>
              r.importId === null ? (
                "Other income"
              ) : (
                <span className="block min-w-0">
                  {r.name}
                  {r.statementId ? <span className="block text-xs break-words text-stone-500">Statement {r.statementId}</span> : null}
                </span>
              ),
          },
          { key: "kind", header: "Kind", cell: (r) => (r.kind ? (KIND_LABELS[r.kind] ?? r.kind) : "—") },
          { key: "date", header: "Imported", cell: (r) => (r.importedAt ? <DateTime iso={r.importedAt} /> : "—") },
          { key: "amount", header: "Your amount", align: "right", cell: (r) => <MicrosMoney micros={r.amount} /> },
          {
            key: "lines",
            header: "Lines",
            align: "right",
            cell: (r) =>
              r.importId === null ? (
                <Count value={r.postings} />
              ) : (
                <Link to={linesHref(search, r.importId)} preventScrollReset className="font-medium text-brand-800 underline">
                  <Count value={r.postings} /> {r.postings === 1 ? "posting" : "postings"}
                  <span className="sr-only"> from {statementTitle(r)}</span>
                </Link>
              ),
          },
        ]}
      />
      {data.statementCount > data.statementsPageSize ? (
        <Pagination
          page={data.statementsPage}
          pageCount={pageCount}
          total={data.statementCount}
          pageSize={data.statementsPageSize}
          noun={["statement", "statements"]}
          param="statements_page"
          label="Statements pages"
        />
      ) : null}
    </div>
  );
}

export function IncomeLinesTable({ data }: { data: IncomeLinesData }) {
  type Row = IncomeLinesData["lines"][number];
  const pageCount = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <div className="space-y-3">
      <DataTable<Row>
        caption={`Your lines in ${data.name ? statementTitle({ name: data.name, statementId: data.statementId }) : "this statement"}`}
        rows={data.lines}
        rowKey={(r) => r.lineId}
        empty={<p className="text-sm text-stone-600">None of this statement's lines paid you.</p>}
        columns={[
          { key: "line", header: "Line", rowHeader: true, cell: (r) => r.lineNo },
          { key: "period", header: "Period", cell: (r) => r.period },
          { key: "source", header: "Store / society", cell: (r) => r.source },
          { key: "territory", header: "Territory", cell: (r) => r.territory ?? "—" },
          { key: "title", header: "Release / track", cell: (r) => [r.releaseTitle, r.trackTitle].filter(Boolean).join(" / ") || "—" },
          { key: "isrc", header: "ISRC", cell: (r) => r.isrc ?? "—" },
          { key: "lineAmount", header: "Line amount", align: "right", cell: (r) => <MicrosMoney micros={r.lineAmount} /> },
          { key: "amount", header: "Your share", align: "right", cell: (r) => <MicrosMoney micros={r.amount} /> },
        ]}
      />
      <Pagination
        page={data.page}
        pageCount={pageCount}
        total={data.total}
        pageSize={data.pageSize}
        noun={["line", "lines"]}
        param="lines_page"
        label="Lines pages"
      />
    </div>
  );
}
