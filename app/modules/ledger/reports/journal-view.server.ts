import { sql, type SQL } from "drizzle-orm";
import { db } from "~/db/client.server";
import { ledgerAccountKinds, type LedgerAccountKind } from "~/db/schema";

/**
 * The admin's journal (`/admin/transactions`): entries newest first, filtered by account kind, member (an id,
 * or a name or email search), entry kind and date range, a page at a time. Each entry shows its postings,
 * at most POSTINGS_SHOWN of them (a statement import's entry has one or more per line: the import's page
 * lists them all), narrowed to the filtered account and member when those filters are set.
 * Three statements: the page with its total, its postings, the entry kinds for the filter.
 */

export const JOURNAL_PAGE_SIZE = 25;
export const POSTINGS_SHOWN = 20;

export interface JournalFilters {
  account: LedgerAccountKind | null;
  /** A member id ("12") or a search on name and email. */
  member: string | null;
  kind: string | null;
  /** YYYY-MM-DD, inclusive, UTC. */
  from: string | null;
  to: string | null;
  page: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function validDay(value: string | null): string | null {
  if (!value || !DAY.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : value;
}

export function parseJournalFilters(search: URLSearchParams): JournalFilters {
  const account = search.get("account");
  const member = search.get("member")?.trim().slice(0, 100) || null;
  const kind = search.get("kind")?.trim().slice(0, 60) || null;
  const page = Number.parseInt(search.get("page") ?? "1", 10);
  return {
    account: account && (ledgerAccountKinds as readonly string[]).includes(account) ? (account as LedgerAccountKind) : null,
    member,
    kind: kind && /^[a-z_]+$/.test(kind) ? kind : null,
    from: validDay(search.get("from")),
    to: validDay(search.get("to")),
    page: Number.isFinite(page) && page >= 1 ? Math.min(page, 100_000) : 1,
  };
}

export interface JournalPosting {
  id: number;
  accountKind: LedgerAccountKind;
  subKind: string;
  member: { id: number; name: string } | null;
  party: { name: string; email: string } | null;
  amountMicros: string;
  source: string | null;
  line: { id: number; lineNo: number; importId: number } | null;
  song: { id: number; title: string } | null;
}

export interface JournalEntryView {
  id: number;
  kind: string;
  memo: string;
  importId: number | null;
  importFileName: string | null;
  reversesEntryId: number | null;
  createdAt: string;
  createdBy: { id: number; name: string } | null;
  postings: JournalPosting[];
  /** More postings than shown (matching the filters). */
  morePostings: boolean;
}

export interface JournalPage {
  entries: JournalEntryView[];
  total: number;
  page: number;
  pageSize: number;
  kinds: string[];
}

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The member filter as a set of user ids: an id as written, else users whose name or email contains the text. */
function memberIdsSql(member: string): SQL {
  if (/^[1-9][0-9]{0,9}$/.test(member) && Number(member) <= 2_147_483_647) return sql`select ${Number(member)}::int`;
  const pattern = `%${member.replace(/[\\%_]/g, (c) => `\\${c}`).toLowerCase()}%`;
  return sql`select u.id from users u where lower(u.name || ' ' || u.last_name) like ${pattern} or lower(u.email) like ${pattern}`;
}

/** The postings condition the account and member filters put on `p` joined to its account `a`. */
function postingFilter(filters: JournalFilters): SQL {
  const parts: SQL[] = [sql`true`];
  if (filters.account) parts.push(sql`a.kind = ${filters.account}`);
  if (filters.member) {
    const ids = memberIdsSql(filters.member);
    parts.push(sql`(a.user_id in (${ids}) or a.split_party_id in (select sp.id from split_parties sp where sp.user_id in (${ids})))`);
  }
  return sql.join(parts, sql` and `);
}

export async function journalPage(filters: JournalFilters): Promise<JournalPage> {
  const where: SQL[] = [sql`true`];
  if (filters.kind) where.push(sql`je.kind = ${filters.kind}`);
  if (filters.from) where.push(sql`je.created_at >= ${filters.from}::date`);
  if (filters.to) where.push(sql`je.created_at < ${filters.to}::date + 1`);
  const postingsFiltered = Boolean(filters.account || filters.member);
  if (postingsFiltered) {
    where.push(sql`exists (select 1 from postings p join ledger_accounts a on a.id = p.account_id where p.entry_id = je.id and ${postingFilter(filters)})`);
  }
  const offset = (filters.page - 1) * JOURNAL_PAGE_SIZE;
  const entryRows = rowsOf<{
    id: number | string;
    kind: string;
    memo: string;
    import_id: number | null;
    file_name: string | null;
    reverses_entry_id: number | string | null;
    created_at: string;
    created_by: number | null;
    creator_name: string | null;
    total: number;
  }>(
    await db().execute(sql`
      select je.id, je.kind, je.memo, je.import_id, si.file_name, je.reverses_entry_id,
        to_char(je.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at,
        je.created_by, case when u.id is null then null else u.name || ' ' || u.last_name end as creator_name,
        count(*) over ()::int as total
      from journal_entries je
      left join sales_imports si on si.id = je.import_id
      left join users u on u.id = je.created_by
      where ${sql.join(where, sql` and `)}
      order by je.created_at desc, je.id desc
      limit ${JOURNAL_PAGE_SIZE} offset ${offset}
    `),
  );
  const ids = entryRows.map((r) => Number(r.id));
  const postingRows = ids.length
    ? rowsOf<{
        entry_id: number | string;
        id: number | string;
        kind: LedgerAccountKind;
        sub_kind: string;
        user_id: number | null;
        user_name: string | null;
        party_name: string | null;
        party_email: string | null;
        amount: string;
        source: string | null;
        line_id: number | string | null;
        line_no: number | null;
        line_import_id: number | null;
        song_id: number | null;
        song_title: string | null;
      }>(
        await db().execute(sql`
          select e.id as entry_id, x.*
          from unnest(${sql.raw(`array[${ids.join(",")}]::bigint[]`)}) as e(id)
          cross join lateral (
            select p.id, a.kind, a.sub_kind, a.user_id,
              case when u.id is null then null else u.name || ' ' || u.last_name end as user_name,
              sp.name as party_name, sp.email as party_email,
              p.amount_micros::text as amount, p.source, p.statement_line_id as line_id, sl.line_no, sl.import_id as line_import_id,
              p.song_id, s.title as song_title
            from postings p
            join ledger_accounts a on a.id = p.account_id
            left join users u on u.id = a.user_id
            left join split_parties sp on sp.id = a.split_party_id
            left join statement_lines sl on sl.id = p.statement_line_id
            left join songs s on s.id = p.song_id
            where p.entry_id = e.id and ${postingFilter(filters)}
            order by p.id
            limit ${POSTINGS_SHOWN + 1}
          ) x
        `),
      )
    : [];
  const kindRows = rowsOf<{ kind: string }>(await db().execute(sql`select distinct kind from journal_entries order by kind`));

  const byEntry = new Map<number, JournalPosting[]>();
  for (const r of postingRows) {
    const list = byEntry.get(Number(r.entry_id)) ?? [];
    list.push({
      id: Number(r.id),
      accountKind: r.kind,
      subKind: r.sub_kind,
      member: r.user_id === null ? null : { id: r.user_id, name: r.user_name ?? `#${r.user_id}` },
      party: r.party_email === null ? null : { name: r.party_name ?? "", email: r.party_email },
      amountMicros: r.amount,
      source: r.source,
      line:
        r.line_id === null || r.line_no === null || r.line_import_id === null ? null : { id: Number(r.line_id), lineNo: r.line_no, importId: r.line_import_id },
      song: r.song_id === null ? null : { id: r.song_id, title: r.song_title ?? `#${r.song_id}` },
    });
    byEntry.set(Number(r.entry_id), list);
  }
  return {
    total: entryRows[0]?.total ?? 0,
    page: filters.page,
    pageSize: JOURNAL_PAGE_SIZE,
    kinds: kindRows.map((k) => k.kind),
    entries: entryRows.map((r) => {
      const list = byEntry.get(Number(r.id)) ?? [];
      return {
        id: Number(r.id),
        kind: r.kind,
        memo: r.memo,
        importId: r.import_id,
        importFileName: r.file_name,
        reversesEntryId: r.reverses_entry_id === null ? null : Number(r.reverses_entry_id),
        createdAt: r.created_at,
        createdBy: r.created_by === null ? null : { id: r.created_by, name: r.creator_name ?? `#${r.created_by}` },
        postings: list.slice(0, POSTINGS_SHOWN),
        morePostings: list.length > POSTINGS_SHOWN,
      };
    }),
  };
}
