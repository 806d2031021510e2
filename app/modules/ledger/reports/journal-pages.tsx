import { Form, Link } from "react-router";
import { DateTime } from "~/components/formatting";
import { Pagination } from "~/components/pagination";
import { ledgerAccountKinds } from "~/db/schema";
import { ExactMicrosMoney } from "./income-pages";
import type { JournalEntryView, JournalFilters, JournalPage, JournalPosting } from "./journal-view.server";

/** The admin journal (`/admin/transactions`): the filter form (GET, works without JavaScript) and the entries. */

const ACCOUNT_LABELS: Record<string, string> = {
  receipts: "Receipts",
  earnings: "Earnings",
  held: "Held",
  suspense: "Suspense",
  commission: "Commission",
  payouts_reserved: "Payouts reserved",
  payouts_paid: "Payouts paid",
  withholding: "Withholding",
  payout_fees: "Payout fees",
  escrow: "Escrow",
  affiliate_commission: "Affiliate commission",
};

const input = "mt-1 block w-full rounded-md border border-stone-300 bg-white px-2.5 py-1.5 text-sm";

export function JournalFiltersForm({ filters, kinds }: { filters: JournalFilters; kinds: string[] }) {
  return (
    <Form
      method="get"
      className="grid gap-3 rounded-lg border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-6"
      aria-label="Filter the journal"
    >
      <label className="text-sm font-medium">
        Account
        <select name="account" defaultValue={filters.account ?? ""} className={input}>
          <option value="">Any account</option>
          {ledgerAccountKinds.map((kind) => (
            <option key={kind} value={kind}>
              {ACCOUNT_LABELS[kind] ?? kind}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm font-medium">
        Member
        <input name="member" defaultValue={filters.member ?? ""} placeholder="Id, name or email" className={input} />
      </label>
      <label className="text-sm font-medium">
        Entry kind
        <select name="kind" defaultValue={filters.kind ?? ""} className={input}>
          <option value="">Any kind</option>
          {[...new Set([...kinds, ...(filters.kind ? [filters.kind] : [])])].map((kind) => (
            <option key={kind} value={kind}>
              {kind.replace(/_/g, " ")}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm font-medium">
        From
        <input type="date" name="from" defaultValue={filters.from ?? ""} className={input} />
      </label>
      <label className="text-sm font-medium">
        To
        <input type="date" name="to" defaultValue={filters.to ?? ""} className={input} />
      </label>
      <div className="flex items-end gap-2">
        <button type="submit" className="rounded-md bg-brand-800 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-900">
          Filter
        </button>
        <Link to="?" className="rounded-md px-3 py-1.5 text-sm font-medium text-stone-700 underline">
          Clear
        </Link>
      </div>
    </Form>
  );
}

function accountCell(p: JournalPosting) {
  const label = ACCOUNT_LABELS[p.accountKind] ?? p.accountKind;
  if (p.accountKind === "receipts") return `${label} (${p.subKind})`;
  return label;
}

function ownerCell(p: JournalPosting) {
  if (p.member)
    return (
      <Link to={`/admin/member/${p.member.id}`} className="text-brand-800 underline">
        {p.member.name}
      </Link>
    );
  if (p.party) return `${p.party.name || p.party.email} (pending party)`;
  return <span className="text-stone-500">Platform</span>;
}

/** `whole`: every posting of the entry is listed (no posting filter, none cut), so their sum, zero, is shown. */
function EntryPostings({ entry, whole }: { entry: JournalEntryView; whole: boolean }) {
  return (
    <table className="w-full text-left text-sm">
      <caption className="sr-only">Postings of entry {entry.id}</caption>
      <thead className="text-xs text-stone-500 uppercase">
        <tr>
          <th scope="col" className="py-1 pr-3 font-semibold">
            Account
          </th>
          <th scope="col" className="py-1 pr-3 font-semibold">
            Member
          </th>
          <th scope="col" className="py-1 pr-3 font-semibold">
            Source
          </th>
          <th scope="col" className="py-1 pr-3 font-semibold">
            Line
          </th>
          <th scope="col" className="py-1 pr-3 font-semibold">
            Song
          </th>
          <th scope="col" className="py-1 text-right font-semibold">
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {entry.postings.map((p) => (
          <tr key={p.id} className="border-t border-stone-100">
            <td className="py-1 pr-3">{accountCell(p)}</td>
            <td className="py-1 pr-3">{ownerCell(p)}</td>
            <td className="py-1 pr-3">{p.source ?? "—"}</td>
            <td className="py-1 pr-3">
              {p.line ? (
                <Link to={`/admin/upload-sales/${p.line.importId}?lines_from=${p.line.lineNo}#line-${p.line.lineNo}`} className="text-brand-800 underline">
                  #{p.line.importId} line {p.line.lineNo}
                </Link>
              ) : (
                "—"
              )}
            </td>
            <td className="py-1 pr-3">
              {p.song ? (
                <Link to={`/admin/song-profile/${p.song.id}`} className="text-brand-800 underline">
                  {p.song.title}
                </Link>
              ) : (
                "—"
              )}
            </td>
            <td className="py-1 text-right tabular-nums">
              <ExactMicrosMoney micros={p.amountMicros} />
            </td>
          </tr>
        ))}
      </tbody>
      {whole ? (
        <tfoot>
          <tr className="border-t border-stone-300">
            <th scope="row" colSpan={5} className="py-1 pr-3 text-left font-medium text-stone-600">
              Sum of the postings
            </th>
            <td className="py-1 text-right font-medium tabular-nums">
              <ExactMicrosMoney micros={entry.postings.reduce((sum, p) => sum + BigInt(p.amountMicros), 0n).toString()} />
            </td>
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
}

/** `postingsFiltered`: the account or member filter lists only some postings of each entry. */
export function JournalEntries({ journal, filtered, postingsFiltered }: { journal: JournalPage; filtered: boolean; postingsFiltered: boolean }) {
  const pageCount = Math.max(1, Math.ceil(journal.total / journal.pageSize));
  return (
    <div className="space-y-4">
      {journal.entries.length === 0 ? (
        <div className="rounded-lg border border-dashed border-stone-300 bg-white px-6 py-12 text-center text-sm text-stone-600">
          {filtered ? "No entry matches these filters." : "The journal is empty: upload a sales statement to start the ledger."}
        </div>
      ) : (
        <ol className="space-y-3">
          {journal.entries.map((entry) => (
            <li key={entry.id} id={`entry-${entry.id}`} className="rounded-lg border border-stone-200 bg-white p-4 shadow-sm">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <h2 className="font-semibold">
                  Entry #{entry.id} · {entry.kind.replace(/_/g, " ")}
                </h2>
                <p className="text-sm text-stone-500">
                  <DateTime iso={entry.createdAt} withTime />
                  {entry.createdBy ? <> · by {entry.createdBy.name}</> : null}
                </p>
              </div>
              {entry.memo ? <p className="mt-1 text-sm text-stone-700">{entry.memo}</p> : null}
              <p className="mt-1 text-sm">
                {entry.importId !== null ? (
                  <Link to={`/admin/upload-sales/${entry.importId}`} className="font-medium text-brand-800 underline">
                    Import #{entry.importId}
                    {entry.importFileName ? ` (${entry.importFileName})` : ""}
                  </Link>
                ) : null}
                {entry.reversesEntryId !== null ? <> Reverses entry #{entry.reversesEntryId}.</> : null}
              </p>
              <div className="mt-2 overflow-x-auto">
                <EntryPostings entry={entry} whole={!postingsFiltered && !entry.morePostings} />
              </div>
              {entry.morePostings ? (
                <p className="mt-2 text-sm text-stone-500">
                  The first {entry.postings.length} postings{filtered ? " matching the filters" : ""}.
                  {entry.importId !== null ? (
                    <>
                      {" "}
                      <Link to={`/admin/upload-sales/${entry.importId}`} className="text-brand-800 underline">
                        The import's page
                      </Link>{" "}
                      lists every line.
                    </>
                  ) : null}
                </p>
              ) : null}
            </li>
          ))}
        </ol>
      )}
      <Pagination
        page={journal.page}
        pageCount={pageCount}
        total={journal.total}
        pageSize={journal.pageSize}
        noun={["entry", "entries"]}
        label="Journal pages"
      />
    </div>
  );
}
