import { Form, Link, useLocation, useNavigation } from "react-router";
import { BarChart, ChartCard, EmptyState, LineChart, PieChart, StatCard } from "~/components/charts";
import { DataTable, type DataColumn } from "~/components/data-table";
import { Count } from "~/components/formatting";
import { Pagination } from "~/components/pagination";
import { formatCents, microsToCentsFloor } from "../money";
import type {
  SalesArea,
  SalesDetailData,
  SalesFilters,
  SalesGroup,
  SalesGroupRow,
  SalesKind,
  SalesLineRow,
  SalesListData,
  SalesTotalRow,
} from "./sales-reports.server";
import { inputClass } from "~/components/forms";

/**
 * The sales pages: a list of totals per artist page (or, admin PRO, per member) and a detail
 * page breaking one artist's money down by period, store, country, release and track, with charts, a
 * table per grouping and the lines behind every figure. Filters, grouping, drill-down and page live in
 * the URL (plain links and GET forms, so all of it works without JavaScript). Money is shown in cents,
 * rounded down from the ledger's micro-units; the CSV exports carry the exact micro-units.
 */

const GROUPS: SalesGroup[] = ["period", "store", "country", "release", "track"];

const KIND_TITLE: Record<SalesArea, Record<SalesKind, string>> = {
  member: { digital: "Digital Sales", license: "License Royalties", pro: "Pro Royalties" },
  admin: { digital: "Digital", license: "License Royalties", pro: "PRO Royalties" },
};

function groupLabel(kind: SalesKind, group: SalesGroup): string {
  if (group === "store") return kind === "pro" ? "Source" : kind === "license" ? "Licensee" : "Store";
  if (group === "track") return kind === "pro" ? "Work" : "Track";
  return { period: "Period", country: "Country", release: "Release" }[group];
}

const money = (micros: string) => formatCents(microsToCentsFloor(BigInt(micros)));
/** A chart value: whole cents, rounded down as every figure on these pages is. */
const cents = (micros: string) => Number(microsToCentsFloor(BigInt(micros)));
const net = (row: { amount: string; commission: string }) => (BigInt(row.amount) - BigInt(row.commission)).toString();
const shown = (key: string) => key || "—";

const buttonSecondary =
  "inline-flex items-center justify-center rounded-md border border-stone-300 bg-white px-3 py-2 text-sm font-medium text-stone-800 shadow-sm hover:bg-stone-50 focus-visible:ring-2 focus-visible:ring-brand-700 focus-visible:outline-none";
const buttonPrimary =
  "inline-flex items-center justify-center rounded-md bg-brand-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-brand-800 disabled:opacity-60";
const linkClass = "font-medium text-brand-800 underline decoration-brand-300 underline-offset-2 hover:decoration-brand-800";

/** A URL's query with some parameters changed (null removes one); the page always starts again at 1. */
function withParams(search: string, changes: Record<string, string | null>, keepPage = false): string {
  const params = new URLSearchParams(search);
  if (!keepPage) params.delete("page");
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) params.delete(name);
    else params.set(name, value);
  }
  const text = params.toString();
  return text ? `?${text}` : "";
}

function hasFilters(filters: SalesFilters) {
  return Boolean(filters.from || filters.to || filters.store || filters.country);
}

function FilterForm({
  kind,
  filters,
  hidden,
  stores,
  countries,
}: {
  kind: SalesKind;
  filters: SalesFilters;
  hidden?: Record<string, string>;
  stores: string[];
  countries: string[];
}) {
  const location = useLocation();
  const navigation = useNavigation();
  const storeLabel = groupLabel(kind, "store");
  return (
    <Form
      method="get"
      role="search"
      aria-label="Filter the figures"
      key={location.search}
      className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]"
    >
      {Object.entries(hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div>
        <label htmlFor="sales-from" className="block text-sm font-medium text-stone-800">
          From (month)
        </label>
        <input id="sales-from" type="month" name="from" defaultValue={filters.from ?? ""} placeholder="YYYY-MM" pattern="\d{4}-\d{2}" className={inputClass} />
      </div>
      <div>
        <label htmlFor="sales-to" className="block text-sm font-medium text-stone-800">
          To (month)
        </label>
        <input id="sales-to" type="month" name="to" defaultValue={filters.to ?? ""} placeholder="YYYY-MM" pattern="\d{4}-\d{2}" className={inputClass} />
      </div>
      <div>
        <label htmlFor="sales-store" className="block text-sm font-medium text-stone-800">
          {storeLabel}
        </label>
        <input id="sales-store" name="store" list="sales-store-options" defaultValue={filters.store ?? ""} maxLength={200} className={inputClass} />
        <datalist id="sales-store-options">
          {stores.filter(Boolean).map((s) => (
            <option key={s} value={s} />
          ))}
        </datalist>
      </div>
      <div>
        <label htmlFor="sales-country" className="block text-sm font-medium text-stone-800">
          Country
        </label>
        <input id="sales-country" name="country" list="sales-country-options" defaultValue={filters.country ?? ""} maxLength={20} className={inputClass} />
        <datalist id="sales-country-options">
          {countries.filter(Boolean).map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      </div>
      <div className="flex items-end gap-2">
        <button type="submit" className={buttonPrimary} disabled={navigation.state === "loading"}>
          Apply
        </button>
        {hasFilters(filters) ? (
          <Link
            to={{ pathname: location.pathname, search: hidden?.group ? `?group=${hidden.group}` : "" }}
            className="inline-flex items-center justify-center rounded-md px-3 py-2 text-sm font-medium text-stone-700 hover:bg-stone-100"
          >
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

function Loading() {
  const navigation = useNavigation();
  return navigation.state === "loading" ? (
    <p role="status" className="text-sm text-stone-500">
      Loading…
    </p>
  ) : null;
}

/* ------------------------------------------------------------------ lists */

export function SalesListPage({ loaderData: data }: { loaderData: SalesListData }) {
  const { area, kind, query, rows, total, count, pageSize } = data;
  const admin = area === "admin";
  const perMember = admin && kind === "pro";
  const subject = perMember ? "Member" : "Artist";
  const columns: Array<DataColumn<SalesListData["rows"][number]>> = [
    {
      key: "name",
      header: subject,
      rowHeader: true,
      cell: (r) => (
        <Link to={r.href} className={linkClass}>
          {r.id === 0 ? (admin ? "Unmatched (suspense)" : "Not in the catalogue") : r.name || `#${r.id}`}
        </Link>
      ),
    },
    { key: "lines", header: "Lines", align: "right", cell: (r) => <Count value={r.lines} /> },
    ...(admin
      ? ([
          {
            key: "gross",
            header: "Statement amount",
            align: "right",
            cell: (r: SalesTotalRow & { href: string }) => (
              <Link to={`${r.href}#lines`} className={linkClass}>
                {money(r.amount)}
              </Link>
            ),
          },
          { key: "commission", header: "Commission", align: "right", cell: (r: SalesTotalRow) => money(r.commission) },
          { key: "net", header: "Net to parties", align: "right", cell: (r: SalesTotalRow) => money(net(r)) },
        ] as Array<DataColumn<SalesListData["rows"][number]>>)
      : [
          {
            key: "amount",
            header: "Your earnings",
            align: "right" as const,
            cell: (r: SalesTotalRow & { href: string }) => (
              <Link to={`${r.href}#lines`} className={linkClass}>
                {money(r.amount)}
              </Link>
            ),
          },
        ]),
  ];
  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">{KIND_TITLE[area][kind]}</h1>
          <p className="mt-1 text-sm text-stone-600">
            {admin
              ? perMember
                ? "Performing-rights statement lines per member they were matched to."
                : "Statement lines per artist page, with the platform commission."
              : "Your share of the statement lines, per artist page."}
          </p>
        </div>
        <a href={data.exportHref} className={buttonSecondary} download>
          Export CSV
        </a>
      </div>
      <FilterForm kind={kind} filters={query} stores={[]} countries={[]} />
      <Loading />
      <div className="grid gap-4 sm:grid-cols-3">
        {admin ? (
          <>
            <StatCard
              label="Statement amount"
              value={money(total.amount)}
              hint={
                <>
                  <Count value={total.lines} /> lines
                </>
              }
            />
            <StatCard label="Commission" value={money(total.commission)} />
            <StatCard label="Net to parties" value={money(net(total))} />
          </>
        ) : (
          <>
            <StatCard label="Your earnings" value={money(total.amount)} />
            <StatCard label="Lines" value={<Count value={total.lines} />} />
            <StatCard label={perMember ? "Members" : "Artist pages"} value={count} />
          </>
        )}
      </div>
      <DataTable
        caption={`${KIND_TITLE[area][kind]}: totals per ${subject.toLowerCase()}`}
        columns={columns}
        rows={rows}
        rowKey={(r) => r.id}
        empty={
          <EmptyState title={hasFilters(query) ? "Nothing in this period or selection." : "No statement lines yet."}>
            {admin ? "Statements appear here once uploaded and imported." : "Your share of imported statements appears here."}
          </EmptyState>
        }
      />
      {count > pageSize ? (
        <Pagination
          page={query.page}
          pageCount={Math.ceil(count / pageSize)}
          total={count}
          pageSize={pageSize}
          noun={perMember ? ["member", "members"] : ["artist page", "artist pages"]}
          label="Sales list pages"
        />
      ) : null}
    </div>
  );
}

/* ------------------------------------------------------------------ a detail page */

export function SalesDetailPage({ loaderData: data }: { loaderData: SalesDetailData }) {
  const { area, kind, subject, query, breakdown, lines, paths } = data;
  const { search } = useLocation();
  const admin = area === "admin";
  const groupRows = breakdown.groups[query.group];
  const label = groupLabel(kind, query.group);
  const keep = withParams(search, { key: null, table: null });

  const groupColumns: Array<DataColumn<SalesGroupRow>> = [
    { key: "key", header: label, rowHeader: true, cell: (g) => shown(g.key) },
    { key: "lines", header: "Lines", align: "right", cell: (g) => <Count value={g.lines} /> },
    {
      key: "amount",
      header: admin ? "Statement amount" : "Your earnings",
      align: "right",
      cell: (g) => (
        <Link
          to={{ search: withParams(search, { key: g.key, group: query.group }), hash: "lines" }}
          className={linkClass}
          aria-label={`${money(g.amount)}: the lines of ${label.toLowerCase()} ${shown(g.key)}`}
          preventScrollReset
        >
          {money(g.amount)}
        </Link>
      ),
    },
    ...(admin
      ? [
          { key: "commission", header: "Commission", align: "right" as const, cell: (g: SalesGroupRow) => money(g.commission) },
          { key: "net", header: "Net to parties", align: "right" as const, cell: (g: SalesGroupRow) => money(net(g)) },
        ]
      : []),
  ];

  const lineColumns: Array<DataColumn<SalesLineRow>> = [
    { key: "line", header: "Statement line", rowHeader: true, cell: (l) => `Import #${l.importId}, line ${l.lineNo}` },
    { key: "period", header: "Period", cell: (l) => l.period },
    { key: "store", header: groupLabel(kind, "store"), cell: (l) => shown(l.store) },
    { key: "country", header: "Country", cell: (l) => shown(l.country) },
    { key: "release", header: "Release", cell: (l) => shown(l.release) },
    { key: "track", header: groupLabel(kind, "track"), cell: (l) => shown(l.track) },
    { key: "quantity", header: "Qty", align: "right", cell: (l) => (l.quantity === null ? "—" : <Count value={l.quantity} />) },
    { key: "lineAmount", header: "Line amount", align: "right", cell: (l) => money(l.lineAmount) },
    ...(admin
      ? [{ key: "commission", header: "Commission", align: "right" as const, cell: (l: SalesLineRow) => money(l.commission) }]
      : [{ key: "amount", header: "Your share", align: "right" as const, cell: (l: SalesLineRow) => money(l.amount) }]),
  ];

  const exportGroups = `${paths.export}${withParams(keep, { group: query.group })}`;
  const exportLines = `${paths.export}${withParams(search, { table: "lines" })}`;
  const empty = breakdown.total.lines === 0;
  // The lines table has a row per line and track; the Lines figure counts statement lines.
  const linesShared = query.key === null && lines.total !== breakdown.total.lines;

  return (
    <div className="mx-auto w-full max-w-6xl space-y-6">
      <div>
        <Link to={{ pathname: paths.list, search: withParams(keep, { group: null }) }} className="text-sm font-medium text-brand-800 hover:underline">
          ← {KIND_TITLE[area][kind]}
        </Link>
        <h1 className="mt-1 text-2xl font-semibold tracking-tight">{subject.name}</h1>
        <p className="mt-1 text-sm text-stone-600">
          {admin ? "Whole statement lines, with the platform commission." : "Your share of each statement line."} Every figure leads to its lines.
        </p>
      </div>
      <FilterForm
        kind={kind}
        filters={query}
        hidden={{ group: query.group }}
        stores={breakdown.groups.store.map((g) => g.key)}
        countries={breakdown.groups.country.map((g) => g.key)}
      />
      <Loading />
      <div className="grid gap-4 sm:grid-cols-3">
        <StatCard label={admin ? "Statement amount" : "Your earnings"} value={money(breakdown.total.amount)} />
        <StatCard label="Lines" value={<Count value={breakdown.total.lines} />} />
        {admin ? (
          <StatCard label="Commission" value={money(breakdown.total.commission)} hint={`Net ${money(net(breakdown.total))}`} />
        ) : (
          <StatCard label="Periods" value={breakdown.groups.period.length} />
        )}
      </div>
      {empty ? (
        <EmptyState title={hasFilters(query) ? "Nothing in this period or selection." : "No figures here yet."}>
          {admin ? "No statement lines belong here." : "You have no share of statement lines on this artist page."}
        </EmptyState>
      ) : (
        <>
          <div className="grid gap-4 lg:grid-cols-2">
            <ChartCard title="By period" description="Month of the sale period's start.">
              <LineChart
                format="cents"
                label={`${subject.name}: amount by month`}
                points={breakdown.groups.period.map((g) => ({ x: g.key, y: cents(g.amount) }))}
              />
            </ChartCard>
            <ChartCard title={`By ${groupLabel(kind, "store").toLowerCase()}`}>
              <BarChart
                format="cents"
                label={`${subject.name}: amount by ${groupLabel(kind, "store").toLowerCase()}`}
                bars={breakdown.groups.store.slice(0, 12).map((g) => ({ label: shown(g.key), value: cents(g.amount) }))}
              />
            </ChartCard>
            <ChartCard title="By country">
              <PieChart
                format="cents"
                label={`${subject.name}: amount by country`}
                slices={breakdown.groups.country
                  .filter((g) => BigInt(g.amount) > 0n)
                  .slice(0, 10)
                  .map((g) => ({ id: shown(g.key), label: shown(g.key), value: cents(g.amount) }))}
              />
            </ChartCard>
            <ChartCard title={`By ${groupLabel(kind, "track").toLowerCase()}`}>
              <BarChart
                format="cents"
                label={`${subject.name}: amount by ${groupLabel(kind, "track").toLowerCase()}`}
                bars={breakdown.groups.track.slice(0, 12).map((g) => ({ label: shown(g.key), value: cents(g.amount) }))}
              />
            </ChartCard>
          </div>

          <section aria-labelledby="sales-breakdown-heading" className="space-y-3">
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 id="sales-breakdown-heading" className="text-lg font-semibold">
                Breakdown
              </h2>
              <a href={exportGroups} className={buttonSecondary} download>
                Export table (CSV)
              </a>
            </div>
            <nav aria-label="Group by">
              <ul className="flex flex-wrap gap-1">
                {GROUPS.map((g) => (
                  <li key={g}>
                    <Link
                      to={{ search: withParams(search, { group: g, key: null }) }}
                      preventScrollReset
                      aria-current={g === query.group ? "page" : undefined}
                      className={`inline-flex rounded-md px-3 py-1.5 text-sm font-medium ${g === query.group ? "bg-brand-900 text-white" : "text-stone-700 hover:bg-stone-100"}`}
                    >
                      {groupLabel(kind, g)}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
            <DataTable
              caption={`${subject.name}: ${KIND_TITLE[area][kind]} by ${label.toLowerCase()}`}
              columns={groupColumns}
              rows={groupRows}
              rowKey={(g) => g.key}
            />
          </section>
        </>
      )}

      <section id="lines" aria-labelledby="sales-lines-heading" className="scroll-mt-20 space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="sales-lines-heading" className="text-lg font-semibold">
            Lines{query.key !== null ? ` of ${label.toLowerCase()} ${shown(query.key)}` : ""}
          </h2>
          <div className="flex flex-wrap gap-2">
            {query.key !== null ? (
              <Link to={{ search: withParams(search, { key: null }), hash: "lines" }} preventScrollReset className={buttonSecondary}>
                All lines
              </Link>
            ) : null}
            <a href={exportLines} className={buttonSecondary} download>
              Export lines (CSV)
            </a>
          </div>
        </div>
        <DataTable
          caption={`${subject.name}: statement lines${query.key !== null ? ` of ${label.toLowerCase()} ${shown(query.key)}` : ""}`}
          columns={lineColumns}
          rows={lines.rows}
          rowKey={(l) => `${l.lineId}-${l.track}`}
          empty={<EmptyState title="No lines." />}
        />
        {linesShared ? (
          <p className="text-sm text-stone-600">
            A line for a whole release is shared among its tracks, one row per track: the <Count value={breakdown.total.lines} /> lines take{" "}
            <Count value={lines.total} /> rows.
          </p>
        ) : null}
        <Pagination
          page={query.page}
          pageCount={Math.max(1, Math.ceil(lines.total / lines.pageSize))}
          total={lines.total}
          pageSize={lines.pageSize}
          noun={linesShared ? ["row", "rows"] : ["line", "lines"]}
          label="Lines pages"
        />
      </section>
    </div>
  );
}
