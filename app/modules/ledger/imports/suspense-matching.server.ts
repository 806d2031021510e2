import { and, asc, desc, eq, inArray, isNull, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { postAffiliateCommissions } from "~/modules/affiliates/commissions.server";
import { matchAliases, statementLines, suspenseMatches, type MatchKeyType, type StatementLineRow, type SuspenseMatch } from "~/db/schema";
import { Accounts } from "../accounts.server";
import { lockLedgerImports } from "../held-shares.server";
import { postEntry, type PostingInput } from "../journal.server";
import { rekeyLines } from "../summaries.server";
import { pgArrayLiteral, withBulkTransaction, type BulkWriter } from "~/db/bulk-transaction.server";
import { linePostings } from "./line-postings";
import { loadMatchIndex, type LineMatch, type MatchIndex } from "./match-index.server";
import { commissionBps } from "./sales-imports.server";

/**
 * The unmatched queue (docs/money.md "Unmatched lines"): an administrator matches a line in suspense to a song,
 * a release or (PRO) a member. One entry moves its money out of suspense to its owners, allocated exactly
 * as an import would have (commission, the split in force on the period's first day, held shares). The
 * line's code or title is remembered as an alias, and the other lines in suspense with the same key are
 * matched by it in the same transaction, so suspense never silently keeps what is now known.
 */
export type MatchTarget = { songId: number } | { releaseId: number } | { memberId: number; songId?: number | null };

export class MatchError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = "MatchError";
  }
}

/**
 * The key a line is remembered by: its ISRC, else its UPC (digital, license); its IPI, else its title (PRO).
 * The database keeps it on the line (statement_lines.suspense_key, "type:key"), so matching the other lines
 * with the same code is one look-up in the index of lines in suspense.
 */
function aliasKeyOf(line: StatementLineRow): { keyType: MatchKeyType; key: string } | null {
  if (!line.suspenseKey) return null;
  const at = line.suspenseKey.indexOf(":");
  return { keyType: line.suspenseKey.slice(0, at) as MatchKeyType, key: line.suspenseKey.slice(at + 1) };
}

function matchFor(line: StatementLineRow, target: MatchTarget, index: MatchIndex): LineMatch {
  if ("memberId" in target) {
    if (line.kind !== "pro") throw new MatchError("Digital and licence lines are matched to a song or a release.");
    return { type: "member", memberId: target.memberId, songId: target.songId ?? null, by: "alias" };
  }
  if (line.kind === "pro") throw new MatchError("A PRO line is matched to a member.");
  if ("songId" in target) {
    if (!index.song(target.songId)) throw new MatchError("That song does not exist.", 404);
    return { type: "song", songId: target.songId, by: "alias" };
  }
  const songIds = index.releaseSongs(target.releaseId);
  if (songIds.length === 0) throw new MatchError("That release has no tracks to share the line over.");
  return { type: "release", releaseId: target.releaseId, songIds, by: "alias" };
}

/**
 * Moves `lines` (all in suspense, all matched to `match`'s target) out of suspense in a fixed number of
 * statements whatever their number (decision 028): their match in one UPDATE, one `suspense_match` entry
 * holding every line's postings (each pointing at its line, allocated by the import's own function, in line
 * order so recoup runs as it would have), the summaries re-keyed in a set when the match gives the lines a
 * release, and the imports' figures in one UPDATE.
 */
async function moveOutOfSuspense(
  tx: Db,
  bulk: BulkWriter,
  lines: StatementLineRow[],
  firstId: number,
  target: MatchTarget,
  index: MatchIndex,
  bps: number,
  actorId: number | null,
  code: string | null,
  onProgress?: (allocated: number) => void,
) {
  if (lines.length === 0) return;
  const postingsOut: PostingInput[] = [];
  let match: LineMatch | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    // A code of 40,000 lines is seconds of allocation: other requests get their turn between slices.
    if (i > 0 && i % SLICE_LINES === 0) {
      onProgress?.(i);
      await nextTurn();
    }
    match = matchFor(line, target, index);
    const shares = linePostings({
      kind: line.kind,
      amountMicros: line.amountMicros,
      salePeriodStart: line.salePeriodStart,
      match,
      commissionBps: bps,
      song: index.song,
      recoupedSoFar: index.recoupedSoFar,
    });
    postingsOut.push({ account: Accounts.suspense(), amountMicros: -line.amountMicros, statementLineId: line.id });
    for (const p of shares)
      postingsOut.push({
        account: p.account,
        amountMicros: p.amountMicros,
        statementLineId: line.id,
        source: p.source,
        splitVersionId: p.splitVersionId,
        songId: p.songId,
        recoupMicros: p.recoupMicros,
      });
  }
  const m = match!;
  const ids = pgArrayLiteral(lines.map((l) => l.id));
  const update = () =>
    tx.execute(sql`
      update statement_lines set matched_by = case when id = ${firstId} then 'admin' else 'alias' end,
        song_id = ${m.type === "song" ? m.songId : m.type === "member" ? m.songId : null}::int,
        release_id = ${m.type === "release" ? m.releaseId : null}::int,
        member_id = ${m.type === "member" ? m.memberId : null}::int
      where id = any(${ids}::bigint[]) and matched_by is null`);
  if (m.type === "release") {
    // A release match changes the lines' release (and title) keys in posting_summaries: their postings move with them.
    await rekeyLines(tx, ids, update);
  } else {
    await update();
  }
  const imports = [...new Set(lines.map((l) => l.importId))];
  const entryId = await postEntry(
    tx,
    {
      kind: "suspense_match",
      memo:
        lines.length === 1
          ? `Line ${lines[0]!.lineNo} of import #${lines[0]!.importId} matched`
          : `${lines.length} lines${code ? ` with the code ${code}` : ""} matched, from ${imports.length === 1 ? `import #${imports[0]}` : `${imports.length} imports`}`,
      importId: imports.length === 1 ? imports[0]! : null,
      createdBy: actorId,
      postings: postingsOut,
    },
    { bulk },
  );
  // The lines' commission may earn an affiliate (decision 025), in this transaction.
  if (entryId !== null && lines[0]!.kind !== "pro") {
    await postAffiliateCommissions(tx, {
      sourceEntryId: entryId,
      importId: imports.length === 1 ? imports[0]! : null,
      createdBy: actorId,
      memo: `Affiliate commissions of ${lines.length} matched line${lines.length === 1 ? "" : "s"}`,
    });
  }
  await tx.execute(sql`
    update sales_imports si set matched = si.matched + x.n, unmatched = si.unmatched - x.n, suspense_micros = si.suspense_micros - x.amount
    from (select import_id, count(*)::int as n, sum(amount_micros) as amount from statement_lines where id = any(${ids}::bigint[]) group by import_id) x
    where si.id = x.import_id`);
}

/**
 * Matches a line in suspense, and every other line in suspense with its code or title (across every import),
 * in one transaction of a fixed number of statements; answers how many lines moved.
 */
export async function matchSuspenseLine(
  actorId: number | null,
  lineId: number,
  target: MatchTarget,
  onProgress?: (allocated: number) => void,
): Promise<{ matched: number }> {
  const bps = await commissionBps();
  // A bulk transaction: a code's thousands of postings go in by COPY (postEntry), their references checked once.
  return withBulkTransaction(async (tx, bulk) => {
    await bulk.allowUncheckedReferences(["postings"]);
    await lockLedgerImports(tx);
    const [line] = await tx.select().from(statementLines).where(eq(statementLines.id, lineId)).limit(1);
    if (!line) throw new MatchError("That line does not exist.", 404);
    if (line.matchedBy !== null) throw new MatchError("That line is matched already.", 409);
    const index = await loadMatchIndex(tx, line.kind);
    const match = matchFor(line, target, index);
    const key = aliasKeyOf(line);
    let lines: StatementLineRow[] = [line];
    if (key) {
      await tx
        .insert(matchAliases)
        .values({
          kind: line.kind,
          keyType: key.keyType,
          key: key.key,
          songId: match.type === "song" ? match.songId : match.type === "member" ? match.songId : null,
          releaseId: match.type === "release" ? match.releaseId : null,
          memberId: match.type === "member" ? match.memberId : null,
          createdBy: actorId,
        })
        .onConflictDoNothing();
      // Every line in suspense with the same code, in line order (the index of lines in suspense by code).
      lines = await tx
        .select()
        .from(statementLines)
        .where(and(eq(statementLines.kind, line.kind), isNull(statementLines.matchedBy), eq(statementLines.suspenseKey, line.suspenseKey!)))
        .orderBy(asc(statementLines.id));
    }
    await moveOutOfSuspense(tx, bulk, lines, line.id, target, index, bps, actorId, key ? key.key : null, onProgress);
    return { matched: lines.length };
  });
}

const SLICE_LINES = 1000;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/* ------------------------------------------------------------------ a match as a background job */

/** A match's progress, as the import's (sales-imports.server.ts ImportProgress): published live by its job. */
export interface MatchProgress {
  matchId: number;
  status: SuspenseMatch["status"];
  lines: number;
}
type MatchProgressListener = (progress: MatchProgress) => void;
const matchProgressListeners = new Set<MatchProgressListener>();
/** Lines allocated so far by matches running in this process (the row's figure appears at commit). */
const runningMatchLines = new Map<number, number>();

export function onMatchProgress(listener: MatchProgressListener): () => void {
  matchProgressListeners.add(listener);
  return () => matchProgressListeners.delete(listener);
}
function reportMatch(progress: MatchProgress) {
  for (const listener of matchProgressListeners) listener(progress);
}

/**
 * Records a match of a line (and every line in suspense with its code) to be run by its job, and counts the
 * lines it will move (one look-up in the index of lines in suspense). `enqueue` adds the job in the same
 * transaction, so a match never exists without its job. MatchError when the line is gone or matched already.
 */
export async function queueSuspenseMatch(
  actorId: number,
  lineId: number,
  target: MatchTarget,
  enqueue: (tx: Db, row: SuspenseMatch) => Promise<unknown>,
): Promise<SuspenseMatch> {
  const [line] = await db().select().from(statementLines).where(eq(statementLines.id, lineId)).limit(1);
  if (!line) throw new MatchError("That line does not exist.", 404);
  if (line.matchedBy !== null) throw new MatchError("That line is matched already.", 409);
  if ("memberId" in target ? line.kind !== "pro" : line.kind === "pro")
    throw new MatchError(line.kind === "pro" ? "A PRO line is matched to a member." : "Digital and licence lines are matched to a song or a release.");
  let expected = 1;
  if (line.suspenseKey) {
    const counted = (await db().execute(
      sql`select count(*)::int as n from statement_lines where kind = ${line.kind} and matched_by is null and suspense_key = ${line.suspenseKey}`,
    )) as unknown as { rows: Array<{ n: number }> };
    expected = Math.max(1, counted.rows[0]!.n);
  }
  return db().transaction(async (tx) => {
    const [row] = await tx
      .insert(suspenseMatches)
      .values({
        lineId,
        importId: line.importId,
        target: target as Record<string, number | null>,
        code: line.suspenseKey,
        expectedLines: expected,
        createdBy: actorId,
      })
      .returning();
    await enqueue(tx as unknown as Db, row!);
    return row!;
  });
}

/**
 * Runs a queued match (the job's handler). Idempotent: a finished match is left alone; a crashed run moved
 * nothing (one transaction), so it starts again. A match refused on its merits (MatchError) ends failed with
 * the reason; any other error is thrown for the job's retries.
 */
export async function runSuspenseMatch(matchId: number): Promise<SuspenseMatch | null> {
  const [claimed] = await db()
    .update(suspenseMatches)
    .set({ status: "processing" })
    .where(and(eq(suspenseMatches.id, matchId), inArray(suspenseMatches.status, ["queued", "processing"])))
    .returning();
  if (!claimed) return null;
  reportMatch({ matchId, status: "processing", lines: 0 });
  let lastReport = 0;
  try {
    const { matched } = await matchSuspenseLine(claimed.createdBy, claimed.lineId, claimed.target as MatchTarget, (allocated) => {
      runningMatchLines.set(matchId, allocated);
      const now = Date.now();
      if (now - lastReport > 500) {
        lastReport = now;
        reportMatch({ matchId, status: "processing", lines: allocated });
      }
    });
    const [done] = await db()
      .update(suspenseMatches)
      .set({ status: "completed", matched, error: null, finishedAt: new Date() })
      .where(eq(suspenseMatches.id, matchId))
      .returning();
    reportMatch({ matchId, status: "completed", lines: matched });
    return done ?? null;
  } catch (error) {
    if (!(error instanceof MatchError)) throw error;
    await failSuspenseMatch(matchId, error.message);
    return null;
  } finally {
    runningMatchLines.delete(matchId);
  }
}

/** Marks a match failed (refused, or out of retries): nothing of it moved. */
export async function failSuspenseMatch(matchId: number, reason: string): Promise<void> {
  await db()
    .update(suspenseMatches)
    .set({ status: "failed", error: reason, finishedAt: new Date() })
    .where(and(eq(suspenseMatches.id, matchId), inArray(suspenseMatches.status, ["queued", "processing"])));
  reportMatch({ matchId, status: "failed", lines: 0 });
}

export interface MatchState {
  id: number;
  status: SuspenseMatch["status"];
  code: string | null;
  expectedLines: number;
  /** Lines moved (completed), or allocated so far (processing, in this process), else 0. */
  lines: number;
  error: string | null;
  createdAt: string;
}

/** The latest matches (of one import, or all), newest first: what the pages show while and after they run. */
export async function recentMatches(importId: number | null, limit = 5): Promise<MatchState[]> {
  const rows = await db()
    .select()
    .from(suspenseMatches)
    .where(importId === null ? undefined : eq(suspenseMatches.importId, importId))
    .orderBy(desc(suspenseMatches.id))
    .limit(limit);
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    code: r.code,
    expectedLines: r.expectedLines,
    lines: r.status === "completed" ? r.matched : r.status === "processing" ? (runningMatchLines.get(r.id) ?? 0) : 0,
    error: r.error,
    createdAt: r.createdAt.toISOString(),
  }));
}

export interface UnmatchedLine {
  id: number;
  lineNo: number;
  period: string;
  source: string;
  artist: string | null;
  releaseTitle: string | null;
  trackTitle: string | null;
  isrc: string | null;
  upc: string | null;
  iswc: string | null;
  ipi: string | null;
  amountMicros: bigint;
}

/** An import's lines still in suspense, a page at a time, with their count. One statement. */
export async function unmatchedLines(importId: number, page: number, perPage = 25): Promise<{ rows: UnmatchedLine[]; total: number }> {
  const rows = await db()
    .select({
      id: statementLines.id,
      lineNo: statementLines.lineNo,
      period: statementLines.salePeriodStart,
      source: statementLines.source,
      artist: statementLines.artist,
      releaseTitle: statementLines.releaseTitle,
      trackTitle: statementLines.trackTitle,
      isrc: statementLines.isrc,
      upc: statementLines.upc,
      iswc: statementLines.iswc,
      ipi: statementLines.ipi,
      amountMicros: statementLines.amountMicros,
      total: sql<number>`count(*) over ()::int`,
    })
    .from(statementLines)
    .where(and(eq(statementLines.importId, importId), isNull(statementLines.matchedBy)))
    .orderBy(asc(statementLines.lineNo))
    .limit(perPage)
    .offset((page - 1) * perPage);
  return { rows: rows.map(({ total: _total, ...row }) => row), total: rows[0]?.total ?? 0 };
}

export interface SuspenseGroup {
  kind: StatementLineRow["kind"];
  /** "isrc", "upc", "ipi" or "title", and the code itself. */
  codeType: string;
  code: string;
  lines: number;
  amountMicros: bigint;
  /** The imports the lines came from, oldest first. */
  imports: number[];
  /** The group's first line: matching it matches the whole group. */
  lineId: number;
  title: string | null;
  artist: string | null;
}

/**
 * The queue across every import (decision 028): the lines in suspense grouped by the code they would be matched
 * by, with their count, amount and imports, biggest amount first, a page at a time, with the number of groups.
 * One statement over the lines still in suspense only (their partial index), never the matched history. Lines
 * with neither a code nor a title have no group: they stay in their import's own queue.
 */
export async function suspenseQueue(page: number, perPage = 25): Promise<{ rows: SuspenseGroup[]; total: number }> {
  const result = (await db().execute(sql`
    select kind, suspense_key, count(*)::int as lines, sum(amount_micros)::text as amount,
      array_agg(distinct import_id order by import_id) as imports, min(id)::text as line_id,
      min(coalesce(track_title, release_title)) as title, min(artist) as artist, count(*) over ()::int as total
    from statement_lines
    where matched_by is null and suspense_key is not null
    group by kind, suspense_key
    order by sum(amount_micros) desc, kind, suspense_key
    limit ${perPage} offset ${(Math.max(1, page) - 1) * perPage}`)) as unknown as {
    rows: Array<{
      kind: StatementLineRow["kind"];
      suspense_key: string;
      lines: number;
      amount: string;
      imports: number[];
      line_id: string;
      title: string | null;
      artist: string | null;
      total: number;
    }>;
  };
  return {
    total: result.rows[0]?.total ?? 0,
    rows: result.rows.map((r) => {
      const at = r.suspense_key.indexOf(":");
      return {
        kind: r.kind,
        codeType: r.suspense_key.slice(0, at),
        code: r.suspense_key.slice(at + 1),
        lines: r.lines,
        amountMicros: BigInt(r.amount),
        imports: r.imports.map(Number),
        lineId: Number(r.line_id),
        title: r.title,
        artist: r.artist,
      };
    }),
  };
}

export interface RememberedCode {
  id: number;
  kind: StatementLineRow["kind"];
  keyType: string;
  key: string;
  /** What the code is matched to: "Song: …", "Release: …" or "Member: …". */
  target: string;
  createdAt: Date;
}

/** The codes matching has learned (match_aliases), newest first, a page at a time, with their count. One statement. */
export async function rememberedCodes(page: number, perPage = 25): Promise<{ rows: RememberedCode[]; total: number }> {
  const result = (await db().execute(sql`
    select a.id, a.kind, a.key_type, a.key, a.created_at,
      case when a.song_id is not null then 'Song: ' || s.title || coalesce(' (' || s.isrc || ')', '')
           when a.release_id is not null then 'Release: ' || r.title || coalesce(' (UPC ' || r.upc || ')', '')
           else 'Member: ' || u.name || ' ' || u.last_name || ' (' || u.email || ')' end as target,
      count(*) over ()::int as total
    from match_aliases a
    left join songs s on s.id = a.song_id
    left join releases r on r.id = a.release_id
    left join users u on u.id = a.member_id
    order by a.created_at desc, a.id desc
    limit ${perPage} offset ${(Math.max(1, page) - 1) * perPage}`)) as unknown as {
    rows: Array<{ id: number; kind: StatementLineRow["kind"]; key_type: string; key: string; created_at: Date | string; target: string; total: number }>;
  };
  return {
    total: result.rows[0]?.total ?? 0,
    rows: result.rows.map((r) => ({ id: r.id, kind: r.kind, keyType: r.key_type, key: r.key, target: r.target, createdAt: new Date(r.created_at) })),
  };
}

/**
 * Forgets a learned code: later statements no longer match by it (lines it matched stay matched, their money
 * where it went; a wrong match is corrected by matching the code again after a reversal). Answers whether it existed.
 */
export async function forgetCode(aliasId: number): Promise<boolean> {
  const removed = await db().delete(matchAliases).where(eq(matchAliases.id, aliasId)).returning({ id: matchAliases.id });
  return removed.length > 0;
}
