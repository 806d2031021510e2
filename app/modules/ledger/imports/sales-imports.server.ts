import fs from "node:fs/promises";
import { and, eq, inArray, ne, sql } from "drizzle-orm";
import { pgArrayLiteral, withBulkTransaction, type BulkRows, type BulkWriter } from "~/db/bulk-transaction.server";
import { db, type Db } from "~/db/client.server";
import { journalEntries, salesImports, type SalesImport } from "~/db/schema";
import { storage } from "~/modules/storage/storage.server";
import { postAffiliateCommissions } from "~/modules/affiliates/commissions.server";
import { readConfigValue } from "~/modules/config/config.server";
import { accountKeyString, Accounts, resolveAccounts, type AccountKey } from "../accounts.server";
import { lockLedgerImports } from "../held-shares.server";
import { monthOf, SummaryAccumulator } from "../summaries.server";
import { UnbalancedEntryError } from "../journal.server";
import { formatMicros, MoneyParseError, parseExchangeRate } from "../money";
import { linePostings, type LinePosting } from "./line-postings";
import { loadMatchIndex, type LineMatch } from "./match-index.server";
import { StatementFormatError, type StatementKind } from "./parse-statement";
import type { HomeLine } from "./statement-reader.server";
import { readStatementFileOffThread } from "./statement-reader-thread.server";
import type { StatementEncoding } from "./statement-encoding.server";

/**
 * Sales statements in (docs/money.md "Statements in"). An upload is checked whole before anything is stored
 * (layout, every line, rates, duplicates), then recorded as a queued import and handed to the job queue.
 * The job posts the whole statement in one transaction: its lines (COPY on PostgreSQL), one journal entry
 * with every line's postings, and the import's figures, so a crash leaves nothing and a re-run finishes it.
 */

export const DEFAULT_COMMISSION_BPS = 1000;
export const SALES_IMPORT_MAX_BYTES = 512 * 1024 * 1024;
const BATCH_LINES = 5000;
/** The main thread's work on an import is cut into slices of this many lines, each followed by a turn of the event loop. */
const SLICE_LINES = 1000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class SalesImportRefusal extends Error {
  constructor(
    message: string,
    readonly field: "kind" | "file" | "exchange_rate" = "file",
    readonly status = 400,
  ) {
    super(message);
    this.name = "SalesImportRefusal";
  }
}

/** Where a statement file is kept: the storage module (decision 033), by the file's SHA-256. */
const statementKey = (sha256: string) => `statements/${sha256}.txt`;

export async function commissionBps(): Promise<number> {
  const value = Number(await readConfigValue<number | string>("commission_bps"));
  return Number.isInteger(value) && value >= 0 && value <= 10_000 ? value : DEFAULT_COMMISSION_BPS;
}

const importLabel = (row: Pick<SalesImport, "id" | "fileName" | "createdAt">) =>
  `import #${row.id} (${row.fileName}, ${row.createdAt.toISOString().slice(0, 10)})`;

async function earlierImport(executor: Db, where: ReturnType<typeof and>, exceptId?: number) {
  const [row] = await executor
    .select({ id: salesImports.id, fileName: salesImports.fileName, createdAt: salesImports.createdAt })
    .from(salesImports)
    .where(and(where, inArray(salesImports.status, ["queued", "processing", "completed"]), exceptId ? ne(salesImports.id, exceptId) : undefined))
    .limit(1);
  return row ?? null;
}

function refusalOf(error: unknown): SalesImportRefusal | null {
  if (error instanceof SalesImportRefusal) return error;
  if (error instanceof StatementFormatError) return new SalesImportRefusal(error.message, error.column === "exchange_rate" ? "exchange_rate" : "file");
  return null;
}

export interface NewSalesImport {
  kind: StatementKind;
  /** The uploaded file, already on disk (a temporary file this call moves or removes). */
  file: { tmpPath: string; filename: string; bytes: number; sha256: string };
  exchangeRate: string | null;
  uploadedBy: number;
}

/**
 * Checks an uploaded statement and records it as a queued import; refuses it (SalesImportRefusal, naming
 * the field) with nothing stored when it is a duplicate, unreadable, or lacks a rate.
 */
export async function createSalesImport(
  upload: NewSalesImport,
  options: { onRecorded?: (tx: Db, row: SalesImport) => Promise<unknown> } = {},
): Promise<SalesImport & { encoding: StatementEncoding }> {
  let rate: string | null = null;
  try {
    if (upload.exchangeRate) {
      try {
        rate = parseExchangeRate(upload.exchangeRate);
      } catch (error) {
        if (error instanceof MoneyParseError)
          throw new SalesImportRefusal("Enter the rate as a positive number of US dollars per unit, such as 1.0832.", "exchange_rate");
        throw error;
      }
    }
    const sameFile = await earlierImport(db(), eq(salesImports.fileSha256, upload.file.sha256));
    if (sameFile) throw new SalesImportRefusal(`This file was imported already: ${importLabel(sameFile)}. Nothing was changed.`, "file", 409);
    // Read on a worker thread: the check of a large file is seconds of CPU the web process must not spend.
    const summary = await readStatementFileOffThread(upload.kind, upload.file.tmpPath, rate, () => {}, { wantLines: false });
    if (summary.statementId) {
      const sameStatement = await earlierImport(db(), and(eq(salesImports.layout, summary.layout.id), eq(salesImports.statementId, summary.statementId)));
      if (sameStatement)
        throw new SalesImportRefusal(
          `Statement “${summary.statementId}” was imported already: ${importLabel(sameStatement)}. Nothing was changed.`,
          "file",
          409,
        );
    }
    const stored = statementKey(upload.file.sha256);
    await storage().putFile(stored, upload.file.tmpPath, { contentType: "text/plain" });
    const row = await db().transaction(async (tx) => {
      const [inserted] = await tx
        .insert(salesImports)
        .values({
          kind: upload.kind,
          status: "queued",
          layout: summary.layout.id,
          fileName: upload.file.filename.slice(0, 200),
          filePath: stored,
          fileSha256: upload.file.sha256,
          fileBytes: upload.file.bytes,
          statementId: summary.statementId,
          expectedLines: summary.lines,
          exchangeRate: rate,
          uploadedBy: upload.uploadedBy,
        })
        .onConflictDoNothing()
        .returning();
      if (!inserted) throw new SalesImportRefusal("This file or statement is being imported right now. Nothing was changed.", "file", 409);
      // The job is recorded with the import, so one never exists without the other.
      await options.onRecorded?.(tx as unknown as Db, inserted);
      return inserted;
    });
    return { ...row, encoding: summary.encoding };
  } catch (error) {
    await fs.rm(upload.file.tmpPath, { force: true });
    throw refusalOf(error) ?? error;
  }
}

/* ------------------------------------------------------------------ the job */

export interface ImportProgress {
  importId: number;
  status: SalesImport["status"];
  lines: number;
}

type ProgressListener = (progress: ImportProgress) => void;
const progressListeners = new Set<ProgressListener>();
/** Lines posted so far by imports running in this process (the row's figures appear only at commit). */
const runningLines = new Map<number, number>();

export function onImportProgress(listener: ProgressListener): () => void {
  progressListeners.add(listener);
  return () => progressListeners.delete(listener);
}

export const linesPostedSoFar = (importId: number) => runningLines.get(importId) ?? null;

function report(progress: ImportProgress) {
  for (const listener of progressListeners) listener(progress);
}

const LINE_COLUMNS = [
  "id",
  "import_id",
  "line_no",
  "kind",
  "statement_id",
  "sale_period_start",
  "sale_period_end",
  "source",
  "territory",
  "artist",
  "release_title",
  "track_title",
  "isrc",
  "upc",
  "iswc",
  "ipi",
  "quantity",
  "original_amount_micros",
  "original_currency",
  "exchange_rate",
  "amount_micros",
  "song_id",
  "release_id",
  "member_id",
  "matched_by",
] as const;
const POSTING_COLUMNS = [
  "entry_id",
  "account_id",
  "amount_micros",
  "currency",
  "statement_line_id",
  "source",
  "split_version_id",
  "song_id",
  "recoup_micros",
] as const;

/** The line's statement_lines row (columns as LINE_COLUMNS): codes, dates, numbers and amounts are plain; the file's own texts are escaped. */
function lineRow(rows: BulkRows, id: number, importId: number, line: HomeLine, match: LineMatch | null): void {
  rows
    .plain(id)
    .plain(importId)
    .plain(line.lineNo)
    .plain(line.kind)
    .text(line.statementId)
    .plain(line.salePeriodStart)
    .plain(line.salePeriodEnd)
    .text(line.source)
    .text(line.territory)
    .text(line.artist)
    .text(line.releaseTitle)
    .text(line.trackTitle)
    .plain(line.isrc)
    .plain(line.upc)
    .plain(line.iswc)
    .plain(line.ipi)
    .plain(line.quantity)
    .plain(line.originalAmountMicros)
    .plain(line.originalCurrency)
    .plain(line.appliedRate)
    .plain(line.amountMicros)
    .plain(match?.type === "song" ? match.songId : match?.type === "member" ? match.songId : null)
    .plain(match?.type === "release" ? match.releaseId : null)
    .plain(match?.type === "member" ? match.memberId : null)
    .plain(match?.by ?? null)
    .end();
}

/**
 * Runs a queued import (the job handler). Idempotent: a completed or refused import is left alone; a
 * crashed run left nothing behind, so it starts again from the first line.
 */
export async function runSalesImport(importId: number): Promise<SalesImport | null> {
  const [claimed] = await db()
    .update(salesImports)
    .set({ status: "processing", startedAt: new Date() })
    .where(and(eq(salesImports.id, importId), inArray(salesImports.status, ["queued", "processing"])))
    .returning();
  if (!claimed) return null;
  report({ importId, status: "processing", lines: 0 });
  try {
    // Read before the transaction, which holds its connection for the whole statement.
    const bps = await commissionBps();
    const done = await withBulkTransaction((tx, bulk) => postStatement(tx, bulk, claimed, bps));
    report({ importId, status: "completed", lines: done.lines });
    return done;
  } catch (error) {
    const refusal = refusalOf(error);
    if (!refusal) throw error;
    const [refused] = await db()
      .update(salesImports)
      .set({ status: "refused", error: refusal.message, finishedAt: new Date() })
      .where(eq(salesImports.id, importId))
      .returning();
    report({ importId, status: "refused", lines: 0 });
    return refused ?? null;
  } finally {
    runningLines.delete(importId);
  }
}

/** Marks an import failed for good (its job ran out of retries): nothing of it was posted. */
export async function failSalesImport(importId: number, reason: string): Promise<void> {
  await db()
    .update(salesImports)
    .set({ status: "failed", error: reason, finishedAt: new Date() })
    .where(and(eq(salesImports.id, importId), inArray(salesImports.status, ["queued", "processing"])));
  report({ importId, status: "failed", lines: 0 });
}

/** Statement line ids are taken from the sequence this many at a time (unused ones are a gap, as sequences have). */
const LINE_IDS_RESERVED = 50_000;

async function postStatement(tx: Db, bulk: BulkWriter, salesImport: SalesImport, bps: number): Promise<SalesImport> {
  // One import at a time, and no held share moving meanwhile: recoup figures, duplicate checks and held
  // balances all read what earlier imports posted.
  await lockLedgerImports(tx);
  if (salesImport.statementId) {
    const same = await earlierImport(
      tx,
      and(eq(salesImports.layout, salesImport.layout ?? ""), eq(salesImports.statementId, salesImport.statementId), eq(salesImports.status, "completed")),
      salesImport.id,
    );
    if (same) throw new SalesImportRefusal(`Statement “${salesImport.statementId}” was imported already: ${importLabel(same)}. Nothing was changed.`);
  }
  const kind = salesImport.kind;
  const index = await loadMatchIndex(tx, kind);
  const accounts = await resolveAccounts(tx, [Accounts.receipts(kind), Accounts.commission(), Accounts.suspense()]);
  const receiptsId = accounts.get(accountKeyString(Accounts.receipts(kind)))!;
  const [entry] = await tx
    .insert(journalEntries)
    .values({
      kind: "statement_import",
      memo: `Sales import #${salesImport.id}: ${salesImport.fileName}`,
      importId: salesImport.id,
      createdBy: salesImport.uploadedBy,
    })
    .returning({ id: journalEntries.id });
  const entryId = entry!.id;
  // The lines and postings go in without a foreign-key check per row when the session may (then every
  // reference is checked below, in a set, before the commit); otherwise with them.
  const unchecked = await bulk.allowUncheckedReferences(["statement_lines", "postings"]);
  const referenced = {
    accounts: new Set<number>([receiptsId]),
    songs: new Set<number>(),
    releases: new Set<number>(),
    members: new Set<number>(),
    versions: new Set<number>(),
  };

  let pending: Array<{ line: HomeLine; match: LineMatch | null; postings: LinePosting[] }> = [];
  const summary = new SummaryAccumulator();
  let lines = 0;
  let matched = 0;
  let suspenseMicros = 0n;
  let totalMicros = 0n;
  let lastReport = 0;
  let nextLineId = 0;
  let lineIdsLeft = 0;

  // One batch is written while the next is read and prepared; any other statement waits for it (one connection).
  let writing: Promise<void> | null = null;
  async function settle() {
    const current = writing;
    writing = null;
    if (current) await current;
  }

  async function flush() {
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    // Each posting's account, by key (created when missing: rarely, after the first batches).
    const keys: string[][] = [];
    let missing: AccountKey[] | null = null;
    for (const item of batch) {
      const names: string[] = [];
      for (const p of item.postings) {
        const name = accountKeyString(p.account);
        names.push(name);
        if (!accounts.has(name)) (missing ??= []).push(p.account);
      }
      keys.push(names);
    }
    if (missing) {
      await settle();
      await resolveAccounts(tx, missing, accounts);
    }
    if (lineIdsLeft < batch.length) {
      // Ids for the lines, taken under the import lock (only imports write statement lines).
      await settle();
      const count = Math.max(LINE_IDS_RESERVED, batch.length);
      const reserved = await tx.execute(
        sql`select setval(pg_get_serial_sequence('statement_lines', 'id'), nextval(pg_get_serial_sequence('statement_lines', 'id')) + ${count - 1})::text as last`,
      );
      nextLineId = Number((reserved as unknown as { rows: Array<{ last: string }> }).rows[0]!.last) - count + 1;
      lineIdsLeft = count;
    }
    const lineRows = bulk.rows("statement_lines", LINE_COLUMNS);
    const postingRows = bulk.rows("postings", POSTING_COLUMNS);
    for (let b = 0; b < batch.length; b++) {
      // Other requests get their turn between slices (the COPY of the previous batch runs meanwhile).
      if (b > 0 && b % SLICE_LINES === 0) await nextTurn();
      const { line, match, postings: made } = batch[b]!;
      const lineId = nextLineId++;
      lineIdsLeft--;
      lineRow(lineRows, lineId, salesImport.id, line, match);
      if (match?.type === "song") referenced.songs.add(match.songId);
      else if (match?.type === "release") referenced.releases.add(match.releaseId);
      else if (match?.type === "member") {
        referenced.members.add(match.memberId);
        if (match.songId !== null) referenced.songs.add(match.songId);
      }
      // Summary keys of this line's postings (the line is new: an account's first posting on it counts it).
      const part = summary.linePart({
        importId: salesImport.id,
        month: monthOf(line.salePeriodStart),
        store: line.source,
        territory: line.territory,
        releaseId: match?.type === "release" ? match.releaseId : null,
        releaseTitle: line.releaseTitle,
        trackTitle: line.trackTitle,
      });
      const seenAccounts: number[] = [];
      const seenSongs: Array<number | null> = [];
      const add = (accountId: number, source: string | null, songId: number | null, amount: bigint) => {
        let firstOnLine = true;
        let firstOnSong = true;
        for (let i = 0; i < seenAccounts.length; i++) {
          if (seenAccounts[i] !== accountId) continue;
          firstOnLine = false;
          if (seenSongs[i] === songId) firstOnSong = false;
        }
        seenAccounts.push(accountId);
        seenSongs.push(songId);
        summary.addPosting(part, accountId, source, songId, amount, firstOnLine, firstOnSong);
      };
      if (line.amountMicros !== 0n) {
        postingRows.plain(entryId).plain(receiptsId).plain(-line.amountMicros).plain("USD").plain(lineId).plain(kind).plain(null).plain(null).plain("0").end();
        add(receiptsId, kind, null, -line.amountMicros);
      }
      const names = keys[b]!;
      for (let i = 0; i < made.length; i++) {
        const p = made[i]!;
        if (p.amountMicros === 0n) continue;
        const accountId = accounts.get(names[i]!)!;
        referenced.accounts.add(accountId);
        if (p.songId !== null) referenced.songs.add(p.songId);
        if (p.splitVersionId !== null) referenced.versions.add(p.splitVersionId);
        add(accountId, p.source, p.songId, p.amountMicros);
        postingRows
          .plain(entryId)
          .plain(accountId)
          .plain(p.amountMicros)
          .plain("USD")
          .plain(lineId)
          .plain(p.source)
          .plain(p.splitVersionId)
          .plain(p.songId)
          .plain(p.recoupMicros)
          .end();
      }
    }
    await settle();
    const written = (async () => {
      await bulk.write(lineRows, { uncheckedReferences: true });
      await bulk.write(postingRows, { uncheckedReferences: true });
    })();
    written.catch(() => {}); // surfaced by settle()
    writing = written;
    runningLines.set(salesImport.id, lines);
    const now = Date.now();
    if (now - lastReport > 500) {
      lastReport = now;
      report({ importId: salesImport.id, status: "processing", lines });
    }
  }

  try {
    // The file is parsed on a worker thread (from a local copy on S3; the stored file itself on the folder driver);
    // matching and allocation run here, a batch of lines at a time.
    await storage().withLocalFile(salesImport.filePath, (localPath) =>
      readStatementFileOffThread(kind, localPath, salesImport.exchangeRate, async (batch) => {
        for (const line of batch) {
          const match = index.match(line);
          const made = linePostings({
            kind,
            amountMicros: line.amountMicros,
            salePeriodStart: line.salePeriodStart,
            match,
            commissionBps: bps,
            song: index.song,
            recoupedSoFar: index.recoupedSoFar,
          });
          // Every line balances on its own: its shares sum to the line (the receipts posting is the line negated).
          let shares = 0n;
          for (const p of made) shares += p.amountMicros;
          if (shares !== line.amountMicros) throw new UnbalancedEntryError(shares - line.amountMicros);
          lines += 1;
          totalMicros += line.amountMicros;
          if (match) matched += 1;
          else suspenseMicros += line.amountMicros;
          pending.push({ line, match, postings: made });
        }
        if (pending.length >= BATCH_LINES) await flush();
        else await nextTurn();
      }),
    );
    await flush();
    await settle();
  } catch (error) {
    await settle().catch(() => {});
    throw error;
  }

  if (unchecked) await checkReferences(tx, salesImport.id, referenced);

  // The invariant (docs/money.md), checked in the database before the import commits: the entry sums to zero,
  // and what it shares out (members, held, commission, suspense) is exactly the statement's total. When the
  // rows went in without their foreign-key checks, the same pass proves every posting's line is this import's.
  const checked = (await tx.execute(sql`
    select coalesce(sum(p.amount_micros), 0)::text as "all",
      coalesce(sum(p.amount_micros) filter (where p.account_id <> ${receiptsId}), 0)::text as shared,
      ${unchecked ? sql`count(*) filter (where p.statement_line_id is not null and l.id is null)::int` : sql`0`} as dangling
    from postings p
    ${unchecked ? sql`left join statement_lines l on l.id = p.statement_line_id and l.import_id = ${salesImport.id}` : sql``}
    where p.entry_id = ${entryId}`)) as unknown as { rows: Array<{ all: string; shared: string; dangling: number }> };
  const check = checked.rows[0];
  if (!check || BigInt(check.all) !== 0n || BigInt(check.shared) !== totalMicros) {
    throw new Error(`Import #${salesImport.id} does not balance: postings sum to ${check?.all}, shared ${check?.shared}, statement total ${totalMicros}.`);
  }
  if (check.dangling !== 0) throw new Error(`Import #${salesImport.id}: ${check.dangling} postings name a statement line that is not this import's.`);

  // The pages' running totals, added once, in this transaction (summaries.server.ts).
  await summary.writeNewImport(bulk);

  // Affiliate commissions earned by this import's commission postings (decision 025): their own entry, set-based, in this transaction.
  if (kind !== "pro") {
    await postAffiliateCommissions(tx, {
      sourceEntryId: entryId,
      importId: salesImport.id,
      createdBy: salesImport.uploadedBy,
      memo: `Affiliate commissions of sales import #${salesImport.id}`,
    });
  }

  const [done] = await tx
    .update(salesImports)
    .set({ status: "completed", lines, matched, unmatched: lines - matched, totalMicros, suspenseMicros, error: null, finishedAt: new Date() })
    .where(eq(salesImports.id, salesImport.id))
    .returning();
  return done!;
}

/**
 * What the foreign keys of the lines and postings written without their per-row checks would have done,
 * once for the whole import: every row they refer to exists, and is locked FOR KEY SHARE until the commit
 * (as each foreign-key check locks it), so that it cannot be deleted under the import. The lines and the
 * journal entry are the import's own (the invariant's query proves the postings' lines).
 */
export async function checkReferences(
  tx: Db,
  importId: number,
  referenced: { accounts: Set<number>; songs: Set<number>; releases: Set<number>; members: Set<number>; versions: Set<number> },
): Promise<void> {
  const parents: Array<[table: string, ids: Set<number>]> = [
    ["sales_imports", new Set([importId])],
    ["ledger_accounts", referenced.accounts],
    ["songs", referenced.songs],
    ["releases", referenced.releases],
    ["users", referenced.members],
    ["split_versions", referenced.versions],
  ];
  for (const [table, ids] of parents) {
    if (ids.size === 0) continue;
    const found = (await tx.execute(
      sql`select count(*)::int as n from (select 1 from ${sql.identifier(table)} where id = any(${pgArrayLiteral([...ids])}::int[]) for key share) locked`,
    )) as unknown as {
      rows: Array<{ n: number }>;
    };
    if (found.rows[0]!.n !== ids.size) throw new Error(`Import #${importId} refers to ${ids.size - found.rows[0]!.n} ${table} rows that no longer exist.`);
  }
}

/** The import's figures as the JSON contract gives them (docs/money.md `GET /api/admin/sales-imports/{id}`). */
export function salesImportJson(row: SalesImport) {
  const running = row.status === "processing" ? linesPostedSoFar(row.id) : null;
  return {
    id: row.id,
    kind: row.kind,
    status: row.status,
    lines: running ?? row.lines,
    matched: row.matched,
    unmatched: row.unmatched,
    total: formatMicros(row.totalMicros),
    suspense: formatMicros(row.suspenseMicros),
    error: row.error,
  };
}
