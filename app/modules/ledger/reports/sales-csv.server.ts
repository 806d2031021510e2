import { requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { notFound } from "~/modules/http/route-errors.server";
import type { RouteArgs } from "~/request-context";
import { formatMicros } from "../money";
import {
  iterateSalesLines,
  parseSalesQuery,
  parseSubjectId,
  salesBreakdown,
  salesScopeOf,
  salesSubjectName,
  salesTotals,
  type SalesArea,
  type SalesKind,
  type SalesLineRow,
} from "./sales-reports.server";

/**
 * The sales tables as CSV, streamed: rows are written as they come from the database (the lines in keyset
 * batches), never gathered whole. Amounts are decimal dollars with six decimals (USD micro-units exactly).
 * A list exports its totals; a detail exports its grouped table (`?group=`) or, with `?table=lines`, the
 * lines behind it (one group's with `&key=`), under the same filters as the page.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: quoted when needed; text that a spreadsheet would run as a formula is prefixed with '. */
export function csvField(value: string | number | null, text = true): string {
  let out = value === null ? "" : String(value);
  if (text && FORMULA_START.test(out)) out = `'${out}`;
  return /[",\r\n]/.test(out) ? `"${out.replace(/"/g, '""')}"` : out;
}

type Cell = { value: string | number | null; text?: boolean };
const t = (value: string | number | null): Cell => ({ value, text: true });
const n = (value: string | number | null): Cell => ({ value, text: false });
const money = (micros: string): Cell => n(formatMicros(BigInt(micros)));

export function csvResponse(filename: string, header: string[], rows: AsyncIterable<Cell[]> | Iterable<Cell[]>): Response {
  const encoder = new TextEncoder();
  const iterator = (Symbol.asyncIterator in rows ? rows[Symbol.asyncIterator]() : (rows as Iterable<Cell[]>)[Symbol.iterator]()) as
    AsyncIterator<Cell[]> | Iterator<Cell[]>;
  const line = (cells: Cell[]) => cells.map((c) => csvField(c.value, c.text !== false)).join(",") + "\r\n";
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(header.map((h) => csvField(h)).join(",") + "\r\n"));
    },
    async pull(controller) {
      // Up to 500 rows per pull: the stream asks for more only as the client reads.
      let chunk = "";
      for (let i = 0; i < 500; i++) {
        const next = await iterator.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += line(next.value);
      }
      controller.enqueue(encoder.encode(chunk));
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  return new Response(stream, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** "backline-digital-sales-member-7-artist-3-store.csv": lowercase ASCII, safe in Content-Disposition. */
export function salesCsvFileName(parts: Array<string | number | null>): string {
  const slug = parts
    .filter((p) => p !== null && p !== "")
    .map((p) =>
      String(p)
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, ""),
    )
    .filter(Boolean)
    .join("-");
  return `backline-${slug}.csv`;
}

async function* lineCells(lines: AsyncIterable<SalesLineRow>, area: SalesArea): AsyncGenerator<Cell[]> {
  for await (const row of lines) {
    const common = [
      n(row.importId),
      n(row.lineNo),
      t(row.period),
      t(row.store),
      t(row.country),
      t(row.release),
      t(row.track),
      n(row.quantity),
      money(row.lineAmount),
    ];
    yield area === "member"
      ? [...common, money(row.amount)]
      : [...common, money(row.commission), money((BigInt(row.amount) - BigInt(row.commission)).toString())];
  }
}

const LINE_HEADER = ["import_id", "line_no", "period", "store", "country", "release", "track", "quantity", "line_amount_usd"];

export async function salesListCsv(area: SalesArea, kind: SalesKind, memberId: number | null, url: URL): Promise<Response> {
  const query = parseSalesQuery(url.searchParams);
  const rows = await salesTotals(salesScopeOf(area, memberId), kind, query);
  const subject = area === "admin" && kind === "pro" ? "member" : "artist";
  const header =
    area === "member" ? [`${subject}_id`, subject, "lines", "amount_usd"] : [`${subject}_id`, subject, "lines", "gross_usd", "commission_usd", "net_usd"];
  const cells = rows.map((r) => {
    const common = [n(r.id), t(r.name), n(r.lines)];
    return area === "member"
      ? [...common, money(r.amount)]
      : [...common, money(r.amount), money(r.commission), money((BigInt(r.amount) - BigInt(r.commission)).toString())];
  });
  return csvResponse(salesCsvFileName([kind, "sales", area === "member" ? `member-${memberId}` : "all", query.from, query.to]), header, cells);
}

export async function salesDetailCsv(area: SalesArea, kind: SalesKind, memberId: number | null, subjectParam: string | undefined, url: URL): Promise<Response> {
  const subject = parseSubjectId(subjectParam);
  if (subject === null) throw notFound();
  const scope = salesScopeOf(area, memberId);
  if ((await salesSubjectName(scope, kind, subject)) === null) throw notFound();
  const query = parseSalesQuery(url.searchParams);
  const subjectWord = area === "admin" && kind === "pro" ? "member" : "artist";
  const owner = area === "member" ? `member-${memberId}` : null;
  if (url.searchParams.get("table") === "lines") {
    const header = area === "member" ? [...LINE_HEADER, "your_amount_usd"] : [...LINE_HEADER, "commission_usd", "net_usd"];
    const name = salesCsvFileName([kind, "sales", owner, subjectWord, subject, "lines", query.key !== null ? query.group : null, query.key]);
    return csvResponse(name, header, lineCells(iterateSalesLines(scope, kind, subject, query), area));
  }
  const breakdown = await salesBreakdown(scope, kind, subject, query);
  const header = area === "member" ? [query.group, "lines", "amount_usd"] : [query.group, "lines", "gross_usd", "commission_usd", "net_usd"];
  const cells = breakdown.groups[query.group].map((g) => {
    const common = [t(g.key), n(g.lines)];
    return area === "member"
      ? [...common, money(g.amount)]
      : [...common, money(g.amount), money(g.commission), money((BigInt(g.amount) - BigInt(g.commission)).toString())];
  });
  return csvResponse(salesCsvFileName([kind, "sales", owner, subjectWord, subject, "by", query.group]), header, cells);
}

/* ------------------------------------------------------------------ guarded loaders for the export routes */

export function memberSalesListCsvLoader({ request, context, params }: RouteArgs, kind: SalesKind) {
  const { memberId } = requireMemberAreaAccess(request, context, params.memberId);
  return salesListCsv("member", kind, memberId, new URL(request.url));
}

export function memberSalesDetailCsvLoader({ request, context, params }: RouteArgs, kind: SalesKind) {
  const { memberId } = requireMemberAreaAccess(request, context, params.memberId);
  return salesDetailCsv("member", kind, memberId, params.id, new URL(request.url));
}

export function adminSalesListCsvLoader({ request, context }: RouteArgs, kind: SalesKind) {
  requireAdminUser(request, context);
  return salesListCsv("admin", kind, null, new URL(request.url));
}

export function adminSalesDetailCsvLoader({ request, context, params }: RouteArgs, kind: SalesKind) {
  requireAdminUser(request, context);
  return salesDetailCsv("admin", kind, null, params.id, new URL(request.url));
}
