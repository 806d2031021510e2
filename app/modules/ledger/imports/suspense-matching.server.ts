import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { postAffiliateCommissions } from "~/modules/affiliates/commissions.server";
import { matchAliases, salesImports, statementLines, type MatchKeyType, type StatementLineRow } from "~/db/schema";
import { Accounts } from "../accounts.server";
import { lockLedgerImports } from "../held-shares.server";
import { postEntry } from "../journal.server";
import { rekeyLine } from "../summaries.server";
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

async function moveOutOfSuspense(tx: Db, line: StatementLineRow, match: LineMatch, index: MatchIndex, bps: number, actorId: number, matchedBy: string) {
  const shares = linePostings({ kind: line.kind, amountMicros: line.amountMicros, salePeriodStart: line.salePeriodStart, match, commissionBps: bps, song: index.song, recoupedSoFar: index.recoupedSoFar });
  // The line's match changes its release (and title) keys in posting_summaries: moved with it.
  await rekeyLine(tx, line.id, () =>
    tx
      .update(statementLines)
      .set({
        matchedBy,
        songId: match.type === "song" ? match.songId : match.type === "member" ? match.songId : null,
        releaseId: match.type === "release" ? match.releaseId : null,
        memberId: match.type === "member" ? match.memberId : null,
      })
      .where(eq(statementLines.id, line.id)),
  );
  const entryId = await postEntry(tx, {
    kind: "suspense_match",
    memo: `Line ${line.lineNo} of import #${line.importId} matched`,
    importId: line.importId,
    createdBy: actorId,
    postings: [
      { account: Accounts.suspense(), amountMicros: -line.amountMicros, statementLineId: line.id },
      ...shares.map((p) => ({ account: p.account, amountMicros: p.amountMicros, statementLineId: line.id, source: p.source, splitVersionId: p.splitVersionId, songId: p.songId, recoupMicros: p.recoupMicros })),
    ],
  });
  // The line's commission may earn an affiliate (decision 025), in this transaction.
  if (entryId !== null && line.kind !== "pro") {
    await postAffiliateCommissions(tx, { sourceEntryId: entryId, importId: line.importId, createdBy: actorId, memo: `Affiliate commissions of line ${line.lineNo} of import #${line.importId}` });
  }
  await tx
    .update(salesImports)
    .set({ matched: sql`${salesImports.matched} + 1`, unmatched: sql`${salesImports.unmatched} - 1`, suspenseMicros: sql`${salesImports.suspenseMicros} - ${line.amountMicros}` })
    .where(eq(salesImports.id, line.importId));
}

/** Matches a line in suspense (and every other one with its code or title); answers how many lines moved. */
export async function matchSuspenseLine(actorId: number, lineId: number, target: MatchTarget): Promise<{ matched: number }> {
  const bps = await commissionBps();
  return db().transaction(async (tx) => {
    await lockLedgerImports(tx);
    const [line] = await tx.select().from(statementLines).where(eq(statementLines.id, lineId)).limit(1);
    if (!line) throw new MatchError("That line does not exist.", 404);
    if (line.matchedBy !== null) throw new MatchError("That line is matched already.", 409);
    const index = await loadMatchIndex(tx, line.kind);
    const match = matchFor(line, target, index);
    await moveOutOfSuspense(tx, line, match, index, bps, actorId, "admin");
    let matched = 1;
    const key = aliasKeyOf(line);
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
      const others = await tx
        .select()
        .from(statementLines)
        .where(and(eq(statementLines.kind, line.kind), isNull(statementLines.matchedBy), eq(statementLines.suspenseKey, line.suspenseKey!)))
        .orderBy(asc(statementLines.id))
        .limit(10_000);
      for (const other of others) {
        await moveOutOfSuspense(tx, other, matchFor(other, target, index), index, bps, actorId, "alias");
        matched += 1;
      }
    }
    return { matched };
  });
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
