import { eq, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { importReconciliations, type ImportReconciliation, type ReconcileMismatch } from "~/db/schema";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { defineJob, enqueueJob } from "~/modules/jobs/queue.server";

/**
 * The administrators' reconcile of an import (docs/money.md "Grain"; decision 028): proves that its lines' parts
 * (each member's, held party's, commission's, suspense's and the receipts' part of each statement line) sum exactly
 * to its postings, per account and source, and lists every mismatch. Four comparisons, each read through indexes
 * from this import's lines and entry only (the import's size, never the ledger's):
 * - account: the import entry's line parts summed per account and source against the entry's postings per account
 *   and source (at a per-line grain the parts are the postings that name a line of this import, so a posting that
 *   names no line, or another import's line, shows here; at a coarser grain the two are kept apart);
 * - line: each line's shares sum to the line's amount and its receipts part is the line negated;
 * - summary: the running totals the pages read (posting_summaries) for the import, per account and source, against
 *   every posting on the import's lines (the import's and the later moves': matches out of suspense, held shares);
 * - entry: the import's entry sums to zero, and its lines to the import's recorded total.
 */

/** The most line mismatches listed (all are counted). */
const LINES_LISTED = 50;

interface Figures {
  account_id: number;
  source: string;
  label: string;
  expected: string;
  found: string;
}

/** An account's name on the reconcile's list: its kind and its owner. */
const ACCOUNT_LABEL = sql.raw(`a.kind || case when a.sub_kind <> '' then ' ' || a.sub_kind else '' end
  || coalesce(' of ' || nullif(btrim(coalesce(u.name, '') || ' ' || coalesce(u.last_name, '')), ''), ' of member #' || a.user_id::text, '')
  || coalesce(' (party ' || a.split_party_id::text || ')', '')`);

/** Runs the reconcile of one import and keeps its result (replacing the last one). Null when the import has not completed. */
export async function reconcileImport(importId: number, executor: Db = db()): Promise<ImportReconciliation | null> {
  const imported = (await executor.execute(sql`
    select i.total_micros::text as total, i.lines, (select max(e.id) from journal_entries e where e.import_id = i.id and e.kind = 'statement_import')::text as entry_id
    from sales_imports i where i.id = ${importId} and i.status = 'completed'`)) as unknown as {
    rows: Array<{ total: string; lines: number; entry_id: string | null }>;
  };
  const head = imported.rows[0];
  if (!head) return null;
  const mismatches: ReconcileMismatch[] = [];
  // An import of lines that all sum to zero posts no entry: nothing to prove but its lines.
  const entryId = head.entry_id ?? "0";

  // Line parts against postings, per account and source.
  const accounts = (await executor.execute(sql`
    with parts as (
      select p.account_id, coalesce(p.source, '') as source, sum(p.amount_micros) as amount
      from statement_lines l join postings p on p.statement_line_id = l.id and p.entry_id = ${entryId}
      where l.import_id = ${importId}
      group by 1, 2),
    posted as (
      select p.account_id, coalesce(p.source, '') as source, sum(p.amount_micros) as amount
      from postings p where p.entry_id = ${entryId}
      group by 1, 2)
    select coalesce(parts.account_id, posted.account_id) as account_id, coalesce(parts.source, posted.source) as source, ${ACCOUNT_LABEL} as label,
      coalesce(parts.amount, 0)::text as expected, coalesce(posted.amount, 0)::text as found
    from parts full join posted on posted.account_id = parts.account_id and posted.source = parts.source
    join ledger_accounts a on a.id = coalesce(parts.account_id, posted.account_id)
    left join users u on u.id = a.user_id
    order by 3, 2`)) as unknown as { rows: Figures[] };
  for (const r of accounts.rows) {
    if (r.expected !== r.found) mismatches.push({ check: "account", label: labelOf(r), expectedMicros: r.expected, foundMicros: r.found });
  }

  // Each line's parts against the line.
  const lines = (await executor.execute(sql`
    select l.line_no, l.amount_micros::text as amount, coalesce(sum(p.amount_micros) filter (where a.kind <> 'receipts'), 0)::text as shares,
      coalesce(sum(p.amount_micros) filter (where a.kind = 'receipts'), 0)::text as receipts, count(*) over ()::int as mismatched
    from statement_lines l
    left join postings p on p.statement_line_id = l.id and p.entry_id = ${entryId}
    left join ledger_accounts a on a.id = p.account_id
    where l.import_id = ${importId}
    group by l.id
    having coalesce(sum(p.amount_micros) filter (where a.kind <> 'receipts'), 0) <> l.amount_micros
      or coalesce(sum(p.amount_micros) filter (where a.kind = 'receipts'), 0) <> -l.amount_micros
    order by l.line_no
    limit ${LINES_LISTED}`)) as unknown as {
    rows: Array<{ line_no: number; amount: string; shares: string; receipts: string; mismatched: number }>;
  };
  for (const r of lines.rows) {
    if (r.shares !== r.amount) mismatches.push({ check: "line", label: `line ${r.line_no}: its shares`, expectedMicros: r.amount, foundMicros: r.shares });
    if (BigInt(r.receipts) !== -BigInt(r.amount))
      mismatches.push({ check: "line", label: `line ${r.line_no}: its receipts`, expectedMicros: (-BigInt(r.amount)).toString(), foundMicros: r.receipts });
  }

  // The running totals of the import's lines against every posting on them. The summaries are read by their
  // primary key (account, source, import), one account at a time.
  const summaries = (await executor.execute(sql`
    with posted as (
      select p.account_id, coalesce(p.source, '') as source, sum(p.amount_micros) as amount
      from statement_lines l join postings p on p.statement_line_id = l.id
      where l.import_id = ${importId}
      group by 1, 2)
    select posted.account_id, posted.source, ${ACCOUNT_LABEL} as label, posted.amount::text as expected, coalesce(s.amount, 0)::text as found
    from posted
    cross join lateral (select sum(ps.amount_micros) as amount from posting_summaries ps
      where ps.account_id = posted.account_id and ps.source = posted.source and ps.import_id = ${importId}) s
    join ledger_accounts a on a.id = posted.account_id
    left join users u on u.id = a.user_id
    order by 3, 2`)) as unknown as { rows: Figures[] };
  for (const r of summaries.rows) {
    if (r.expected !== r.found) mismatches.push({ check: "summary", label: `${labelOf(r)}: running total`, expectedMicros: r.expected, foundMicros: r.found });
  }

  // The entry balances, and the lines add up to the import's recorded total.
  const totals = (await executor.execute(sql`
    select (select coalesce(sum(amount_micros), 0) from postings where entry_id = ${entryId})::text as entry,
      (select coalesce(sum(amount_micros), 0) from statement_lines where import_id = ${importId})::text as lines`)) as unknown as {
    rows: Array<{ entry: string; lines: string }>;
  };
  const t = totals.rows[0]!;
  if (t.entry !== "0") mismatches.push({ check: "entry", label: "the import's entry (debits and credits)", expectedMicros: "0", foundMicros: t.entry });
  if (t.lines !== head.total)
    mismatches.push({ check: "entry", label: "the lines against the import's total", expectedMicros: head.total, foundMicros: t.lines });

  const row = {
    importId,
    reconciled: mismatches.length === 0,
    linesChecked: head.lines,
    accountsChecked: new Set(accounts.rows.map((r) => r.account_id)).size,
    mismatches,
    mismatchedLines: lines.rows[0]?.mismatched ?? 0,
    checkedAt: new Date(),
  };
  const [saved] = await executor
    .insert(importReconciliations)
    .values(row)
    .onConflictDoUpdate({ target: importReconciliations.importId, set: { ...row, importId: undefined } })
    .returning();
  return saved!;
}

const labelOf = (r: Figures) => (r.source ? `${r.label}, ${r.source}` : r.label);

/** The last reconcile of an import, or null when none ran yet. */
export async function lastReconciliation(importId: number): Promise<ImportReconciliation | null> {
  const [row] = await db().select().from(importReconciliations).where(eq(importReconciliations.importId, importId)).limit(1);
  return row ?? null;
}

/** The last reconcile as the import's page shows it (reconcile-section.tsx), or null. */
export async function reconcileView(importId: number) {
  const row = await lastReconciliation(importId);
  if (!row) return null;
  const { importId: _id, checkedAt, ...rest } = row;
  return { ...rest, checkedAt: checkedAt.toISOString() };
}

/** The import page's "Reconcile again" button: runs it now (it reads the import's own lines and entry) and says the verdict. */
export async function reconcileFromForm(importId: number, here: string) {
  const result = await reconcileImport(importId);
  if (!result) return redirectWithFlash(here, { kind: "error", message: "Only a completed import can be reconciled." });
  return redirectWithFlash(
    here,
    result.reconciled
      ? { kind: "success", message: "Reconciled: the import's line parts sum exactly to its postings." }
      : { kind: "error", message: `The reconcile found ${result.mismatches.length} mismatches: they are listed under Reconcile.` },
  );
}

export const IMPORT_RECONCILE_JOB = "import-reconcile";

/** Registered by the job registry (app/modules/jobs/registry.server.ts); enqueued after each import completes and by the admin's button. */
export const importReconcileJob = defineJob<{ importId: number }>(
  IMPORT_RECONCILE_JOB,
  async ({ importId }) => {
    await reconcileImport(importId);
  },
  { retryLimit: 2, retryDelaySeconds: 10, expireInSeconds: 30 * 60 },
);

/** Queues a reconcile of the import (at most one waiting per import). */
export function enqueueReconcile(importId: number) {
  return enqueueJob(IMPORT_RECONCILE_JOB, { importId }, { singletonKey: `import-reconcile:${importId}` });
}
