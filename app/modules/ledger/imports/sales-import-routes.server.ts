import fs from "node:fs/promises";
import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { and, asc, desc, eq, ilike, isNotNull, ne, or, sql } from "drizzle-orm";
import { data } from "react-router";
import { z } from "zod";
import { db } from "~/db/client.server";
import { ledgerAccounts, postings, profiles, releases, salesImports, songs, statementLines, users } from "~/db/schema";
import { parseId, requireAdminUser } from "~/modules/accounts/guards.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { apiError, requireApiAdmin } from "~/modules/api/api.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { notFound, routeError } from "~/modules/http/route-errors.server";
import { parseForm, readForm } from "~/modules/security/form-body.server";
import { receiveStreamedUpload, StreamedUploadError } from "~/modules/security/streamed-upload.server";
import type { RouteArgs } from "~/request-context";
import { formatMicros } from "../money";
import { reconcileFromForm, reconcileView } from "../reconcile.server";
import { LAYOUTS } from "./parse-statement";
import { submitSalesImport } from "./sales-import-job.server";
import { ENCODING_LABELS } from "./statement-encoding.server";
import { linesPostedSoFar, SALES_IMPORT_MAX_BYTES, SalesImportRefusal, salesImportJson } from "./sales-imports.server";
import { storage } from "~/modules/storage/storage.server";
import { STATEMENT_KINDS } from "./statement-line";
import { submitSuspenseMatch } from "./suspense-match-job.server";
import { forgetCode, MatchError, recentMatches, rememberedCodes, suspenseQueue, unmatchedLines, type MatchTarget } from "./suspense-matching.server";

/**
 * The admin's sales uploads: the upload form and the import history (`/admin/upload-sales`), each
 * import's page with its lines, its unmatched queue and its reconciliation (`/admin/upload-sales/{id}`),
 * and the JSON status of an import (docs/money.md `GET /api/admin/sales-imports/{id}`).
 */

export const UploadSalesSchema = z.object({
  kind: z.enum(STATEMENT_KINDS as unknown as ["digital", "pro", "license"], { error: "Choose the kind of statement." }),
  exchange_rate: z.string().trim().max(40).optional(),
});

export interface UploadActionData {
  result: SubmissionResult<string[]>;
}

const HISTORY_PAGE = 20;
const LINES_PAGE = 25;

export const layoutLabel = (id: string | null) => LAYOUTS.find((l) => l.id === id)?.label ?? "—";

const pageOf = (url: URL) => Math.max(1, Math.min(10_000, Number.parseInt(url.searchParams.get("page") ?? "1", 10) || 1));

export async function uploadSalesLoader({ request, context }: RouteArgs) {
  requireAdminUser(request, context);
  const page = pageOf(new URL(request.url));
  const rows = await db()
    .select({
      row: salesImports,
      uploader: sql<string | null>`${users.name} || ' ' || ${users.lastName}`,
      total: sql<number>`count(*) over ()::int`,
    })
    .from(salesImports)
    .leftJoin(users, eq(users.id, salesImports.uploadedBy))
    .orderBy(desc(salesImports.createdAt), desc(salesImports.id))
    .limit(HISTORY_PAGE)
    .offset((page - 1) * HISTORY_PAGE);
  return {
    page,
    pageSize: HISTORY_PAGE,
    total: rows[0]?.total ?? 0,
    imports: rows.map(({ row, uploader }) => ({
      ...salesImportJson(row),
      layout: layoutLabel(row.layout),
      fileName: row.fileName,
      createdAt: row.createdAt.toISOString(),
      uploader,
    })),
  };
}

function uploadReply(fields: Record<string, string>, fieldErrors: Record<string, string[]>, status: number) {
  const formData = new FormData();
  for (const [name, value] of Object.entries(fields)) if (name === "kind" || name === "exchange_rate") formData.set(name, value);
  return data<UploadActionData>({ result: parseWithZod(formData, { schema: UploadSalesSchema }).reply({ fieldErrors }) }, { status });
}

export async function uploadSalesAction({ request, context }: RouteArgs) {
  const { user } = requireAdminUser(request, context);
  let received;
  try {
    received = await receiveStreamedUpload(request, {
      fileField: "file",
      maxBytes: SALES_IMPORT_MAX_BYTES,
      tmpDir: storage().tmpDir(),
      messages: {
        noFile: "Choose the statement file.",
        unreadable: "The upload was interrupted or could not be read. Choose the file again.",
        tooLarge: `A statement file can be at most ${SALES_IMPORT_MAX_BYTES / 1024 / 1024} MB.`,
      },
    });
  } catch (error) {
    if (error instanceof StreamedUploadError) return uploadReply({}, { file: [error.message] }, error.status);
    throw error;
  }
  const formData = new FormData();
  for (const [name, value] of Object.entries(received.fields)) formData.set(name, value);
  const submission = parseForm(formData, { schema: UploadSalesSchema });
  const discard = async () => {
    if (received.file) await fs.rm(received.file.tmpPath, { force: true });
  };
  if (submission.status !== "success") {
    await discard();
    return data<UploadActionData>({ result: submission.reply() }, { status: 400 });
  }
  if (!received.file || received.file.bytes === 0) {
    await discard();
    return uploadReply(received.fields, { file: ["Choose the statement file."] }, 400);
  }
  try {
    const created = await submitSalesImport({
      kind: submission.value.kind,
      file: received.file,
      exchangeRate: submission.value.exchange_rate || null,
      uploadedBy: user.id,
    });
    // Text in another encoding than UTF-8 is said, so a wrong guess is seen before the lines are matched.
    const encoding = created.encoding === "utf-8" ? "" : ` Its text was read as ${ENCODING_LABELS[created.encoding]}.`;
    return redirectWithFlash(`/admin/upload-sales/${created.id}`, {
      kind: "success",
      message: `“${created.fileName}” is checked and queued: ${created.layout ? layoutLabel(created.layout) : "statement"}.${encoding}`,
    });
  } catch (error) {
    if (error instanceof SalesImportRefusal) return uploadReply(received.fields, { [error.field]: [error.message] }, error.status);
    throw error;
  }
}

/* ------------------------------------------------------------------ one import */

async function requireImport(idParam: string | undefined) {
  const id = parseId(idParam);
  if (id === null) throw notFound();
  const [row] = await db()
    .select({ row: salesImports, uploader: sql<string | null>`${users.name} || ' ' || ${users.lastName}` })
    .from(salesImports)
    .leftJoin(users, eq(users.id, salesImports.uploadedBy))
    .where(eq(salesImports.id, id))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** Where an import's money went, by account kind, across its entries and later suspense matches. */
async function reconciliation(importId: number) {
  const rows = await db()
    .select({ kind: ledgerAccounts.kind, sum: sql<string>`sum(${postings.amountMicros})::text` })
    .from(postings)
    .innerJoin(statementLines, eq(statementLines.id, postings.statementLineId))
    .innerJoin(ledgerAccounts, eq(ledgerAccounts.id, postings.accountId))
    .where(and(eq(statementLines.importId, importId), ne(ledgerAccounts.kind, "receipts")))
    .groupBy(ledgerAccounts.kind);
  const of = (kind: string) => BigInt(rows.find((r) => r.kind === kind)?.sum ?? "0");
  const parts = { earnings: of("earnings"), held: of("held"), commission: of("commission"), suspense: of("suspense") };
  const posted = parts.earnings + parts.held + parts.commission + parts.suspense;
  return {
    earnings: formatMicros(parts.earnings),
    held: formatMicros(parts.held),
    commission: formatMicros(parts.commission),
    suspense: formatMicros(parts.suspense),
    posted: formatMicros(posted),
  };
}

/**
 * What an unmatched line can be matched to: the catalogue's songs and releases (digital, licence), or, with
 * `find`, those whose title, artist, ISRC or UPC contains it (the queue's search: a catalogue of any size).
 */
async function matchOptions(find = "") {
  const like = `%${find.replace(/[\\%_]/g, "\\$&")}%`;
  const limit = find ? 50 : 1000;
  const [songRows, releaseRows] = await Promise.all([
    db()
      .select({ id: songs.id, title: songs.title, isrc: songs.isrc, artist: profiles.name })
      .from(songs)
      .innerJoin(profiles, eq(profiles.id, songs.artistId))
      .where(find ? or(ilike(songs.title, like), ilike(profiles.name, like), ilike(songs.isrc, like.replace(/-/g, ""))) : undefined)
      .orderBy(asc(profiles.name), asc(songs.title))
      .limit(limit),
    db()
      .select({ id: releases.id, title: releases.title, upc: releases.upc, artist: profiles.name })
      .from(releases)
      .innerJoin(profiles, eq(profiles.id, releases.artistId))
      .where(and(isNotNull(releases.upc), find ? or(ilike(releases.title, like), ilike(profiles.name, like), ilike(releases.upc, like)) : undefined))
      .orderBy(asc(profiles.name), asc(releases.title))
      .limit(limit),
  ]);
  return {
    songs: songRows.map((s) => ({ value: `song:${s.id}`, label: `${s.artist} — ${s.title}${s.isrc ? ` (${s.isrc})` : ""}` })),
    releases: releaseRows.map((r) => ({ value: `release:${r.id}`, label: `${r.artist} — ${r.title} (UPC ${r.upc})` })),
  };
}

/** The import's lines from a line number on (keyset paging: deep pages cost the same as the first). */
async function importLines(importId: number, fromLine: number) {
  const rows = await db()
    .select({
      lineNo: statementLines.lineNo,
      period: statementLines.salePeriodStart,
      source: statementLines.source,
      territory: statementLines.territory,
      title: sql<string | null>`coalesce(${statementLines.trackTitle}, ${statementLines.releaseTitle})`,
      code: sql<string | null>`coalesce(${statementLines.isrc}, ${statementLines.upc}, ${statementLines.iswc}, ${statementLines.ipi})`,
      original: statementLines.originalAmountMicros,
      currency: statementLines.originalCurrency,
      amount: statementLines.amountMicros,
      matchedBy: statementLines.matchedBy,
    })
    .from(statementLines)
    .where(and(eq(statementLines.importId, importId), sql`${statementLines.lineNo} >= ${fromLine}`))
    .orderBy(asc(statementLines.lineNo))
    .limit(LINES_PAGE + 1);
  return {
    fromLine,
    next: rows.length > LINES_PAGE ? rows[LINES_PAGE]!.lineNo : null,
    rows: rows.slice(0, LINES_PAGE).map((l) => ({ ...l, original: formatMicros(l.original), amount: formatMicros(l.amount) })),
  };
}

export async function salesImportLoader({ request, context, params }: RouteArgs) {
  requireAdminUser(request, context);
  const { row, uploader } = await requireImport(params.id);
  const url = new URL(request.url);
  const page = pageOf(url);
  const fromLine = Math.max(0, Math.min(2_000_000_000, Number.parseInt(url.searchParams.get("lines_from") ?? "0", 10) || 0));
  const [unmatched, money, options, lines, reconcile, matches] = await Promise.all([
    row.status === "completed" ? unmatchedLines(row.id, page, LINES_PAGE) : Promise.resolve({ rows: [], total: 0 }),
    row.status === "completed" ? reconciliation(row.id) : Promise.resolve(null),
    row.status === "completed" && row.unmatched > 0 && row.kind !== "pro" ? matchOptions() : Promise.resolve({ songs: [], releases: [] }),
    row.status === "completed" ? importLines(row.id, fromLine) : Promise.resolve({ fromLine, next: null, rows: [] }),
    row.status === "completed" ? reconcileView(row.id) : Promise.resolve(null),
    row.status === "completed" ? recentMatches(row.id) : Promise.resolve([]),
  ]);
  return {
    salesImport: {
      ...salesImportJson(row),
      layout: layoutLabel(row.layout),
      fileName: row.fileName,
      fileBytes: row.fileBytes,
      statementId: row.statementId,
      expectedLines: row.expectedLines,
      exchangeRate: row.exchangeRate,
      createdAt: row.createdAt.toISOString(),
      startedAt: row.startedAt?.toISOString() ?? null,
      finishedAt: row.finishedAt?.toISOString() ?? null,
      uploader,
    },
    reconciliation: money,
    reconcile,
    unmatched: {
      page,
      pageSize: LINES_PAGE,
      total: unmatched.total,
      rows: unmatched.rows.map((l) => ({ ...l, amount: formatMicros(l.amountMicros), amountMicros: undefined })),
    },
    options,
    lines,
    linesSoFar: row.status === "processing" ? linesPostedSoFar(row.id) : null,
    matches,
  };
}

const MatchSchema = z.object({
  intent: z.literal("match"),
  line: z.coerce.number().int().positive(),
  target: z.string().trim().max(200).optional(),
  member: z.string().trim().max(320).optional(),
});

type MatchSubmission = z.infer<typeof MatchSchema>;

/** The song, release (digital, licence) or member (PRO) a match form names, or the message beside the field. */
async function matchTargetOf(kind: string, value: MatchSubmission): Promise<MatchTarget | string> {
  if (kind === "pro") {
    const who = value.member ?? "";
    const member = /^\d+$/.test(who) ? { id: Number(who) } : who ? await findUserByEmail(who) : null;
    if (!member) return who ? `No member has the address or id “${who}”.` : "Enter the member's email address or id.";
    return { memberId: member.id };
  }
  const [type, id] = (value.target ?? "").split(":");
  if (!id || !/^\d+$/.test(id) || (type !== "song" && type !== "release")) return "Choose the song or release this line belongs to.";
  return type === "song" ? { songId: Number(id) } : { releaseId: Number(id) };
}

/**
 * Matches a line in suspense (and every line with its code) from a form, answering the redirect with its flash,
 * or the form's error beside it. `importId`: the line must be that import's (the import page's forms).
 */
async function matchFromForm(formData: FormData, actorId: number, here: string, importId: number | null) {
  const submission = parseForm(formData, { schema: MatchSchema });
  if (submission.status !== "success") throw routeError(400, "Unknown form.");
  const fail = (message: string, status = 400) => data({ lineId: submission.value.line, error: message }, { status });
  const [line] = await db()
    .select({ importId: statementLines.importId, kind: statementLines.kind, matchedBy: statementLines.matchedBy })
    .from(statementLines)
    .where(eq(statementLines.id, submission.value.line))
    .limit(1);
  if (!line || (importId !== null && line.importId !== importId))
    return fail(importId !== null ? "That line is not one of this import's." : "That line does not exist.", 404);
  const target = await matchTargetOf(line.kind, submission.value);
  if (typeof target === "string") return fail(target);
  try {
    // The lines move in a background job (suspense-match-job.server.ts); the page shows its progress.
    const queued = await submitSuspenseMatch(actorId, submission.value.line, target);
    return redirectWithFlash(here, {
      kind: "success",
      message:
        queued.expectedLines === 1
          ? "The line is queued to be matched: its money moves out of suspense in a moment."
          : `${queued.expectedLines.toLocaleString("en-US")} lines with the same code are queued to be matched: their progress shows below.`,
    });
  } catch (error) {
    if (error instanceof MatchError) return fail(error.message, error.status);
    if (error instanceof Error && /foreign key|violates/.test(error.message)) return fail("That member does not exist.", 404);
    throw error;
  }
}

export async function salesImportAction({ request, context, params }: RouteArgs) {
  const { user } = requireAdminUser(request, context);
  const { row } = await requireImport(params.id);
  const formData = await readForm(request);
  if (formData.get("intent") === "reconcile") return reconcileFromForm(row.id, `/admin/upload-sales/${row.id}`);
  return matchFromForm(formData, user.id, `/admin/upload-sales/${row.id}`, row.id);
}

/* ------------------------------------------------------------------ the queue across imports */

const QUEUE_PAGE = 25;

/** `/admin/suspense`: every import's lines in suspense grouped by code, biggest first, with a searchable picker. */
export async function suspenseQueueLoader({ request, context }: RouteArgs) {
  requireAdminUser(request, context);
  const url = new URL(request.url);
  const page = pageOf(url);
  const find = (url.searchParams.get("find") ?? "").trim().slice(0, 100);
  const codesPage = Math.max(1, Math.min(10_000, Number.parseInt(url.searchParams.get("codes_page") ?? "1", 10) || 1));
  const [queue, options, codes, matches] = await Promise.all([
    suspenseQueue(page, QUEUE_PAGE),
    matchOptions(find),
    rememberedCodes(codesPage, QUEUE_PAGE),
    recentMatches(null),
  ]);
  return {
    codes: { page: codesPage, pageSize: QUEUE_PAGE, total: codes.total, rows: codes.rows.map((c) => ({ ...c, createdAt: c.createdAt.toISOString() })) },
    find,
    page,
    pageSize: QUEUE_PAGE,
    total: queue.total,
    groups: queue.rows.map((g) => ({ ...g, amount: formatMicros(g.amountMicros), amountMicros: undefined })),
    options,
    matches,
  };
}

const ForgetSchema = z.object({ intent: z.literal("forget"), alias: z.coerce.number().int().positive().max(2_147_483_647) });

export async function suspenseQueueAction({ request, context }: RouteArgs) {
  const { user } = requireAdminUser(request, context);
  const url = new URL(request.url);
  const here = `/admin/suspense${url.search}`;
  const formData = await readForm(request);
  const forget = parseForm(formData, { schema: ForgetSchema });
  if (forget.status === "success") {
    if (!(await forgetCode(forget.value.alias))) throw routeError(404, "That remembered code does not exist.");
    return redirectWithFlash(here, { kind: "success", message: "The code is forgotten: later statements with it land in suspense again." });
  }
  return matchFromForm(formData, user.id, here, null);
}

export async function salesImportApiLoader({ context, params }: RouteArgs) {
  requireApiAdmin(context);
  const id = parseId(params.id);
  const [row] = id === null ? [] : await db().select().from(salesImports).where(eq(salesImports.id, id)).limit(1);
  if (!row) throw apiError(404, "Not found.");
  return Response.json({ data: salesImportJson(row) });
}

export type UploadSalesData = Awaited<ReturnType<typeof uploadSalesLoader>>;
export type SalesImportData = Awaited<ReturnType<typeof salesImportLoader>>;
export type SuspenseQueueData = Awaited<ReturnType<typeof suspenseQueueLoader>>;
