import type { SubmissionResult } from "@conform-to/react";
import { data } from "react-router";
import type { User } from "~/db/schema";
import { notFound, parseId, requireAdminUser, requireMemberAreaAccess } from "~/modules/accounts/guards.server";
import { findSong, type SongDetail } from "~/modules/catalog/catalog.server";
import { artistReleaseRights, type ReleaseRights } from "~/modules/catalog/releases/release-access.server";
import { percentToBps } from "~/modules/catalog/songs/song-schemas";
import { env } from "~/env.server";
import { redirectWithFlash } from "~/modules/flash/flash.server";
import { parseForm } from "~/modules/security/form-body.server";
import { requestInfoContext, type RouteArgs } from "~/request-context";
import { dollarsToMicros, SplitPartyActionSchema, SplitProposalSchema, SplitVersionActionSchema } from "./split-schemas";
import { loadSplitSheet, SPLIT_VERSION_STATE_LABELS, type SplitSheetView } from "./split-sheet.server";
import { renderSplitSheetPdf, splitSheetFileName, type SplitSheetPdfInput } from "./split-sheet-pdf.server";
import {
  answerSplit,
  canConfirmSplits,
  confirmSplit,
  isSplitParty,
  proposeSplit,
  resendSplitInvite,
  SplitError,
  withdrawSplit,
  type RequestMeta,
} from "./splits.server";

/**
 * The split sheet on the song profile (member and admin): loading it, its forms (intents split-propose,
 * split-confirm, split-withdraw, split-resend, split-accept, split-decline) and the signed sheet's PDF.
 * A song's editors manage its splits; its parties see the whole sheet and answer; everyone else gets 404.
 */

export type SplitRights = { manage: boolean; confirm: boolean };

/** The song with the id from the URL, for its editors (rights) or its split parties (rights null); 404 otherwise. */
export async function requireSongOrSplitParty(actor: User, idParam: string | undefined): Promise<{ song: SongDetail; rights: ReleaseRights | null }> {
  const id = parseId(idParam);
  if (id === null) throw notFound();
  const song = await findSong(id);
  if (!song) throw notFound();
  const rights = await artistReleaseRights(actor, song.artist);
  if (rights) return { song, rights };
  if (await isSplitParty(song.id, actor)) return { song, rights: null };
  throw notFound();
}

export interface SplitSectionData {
  sheet: SplitSheetView;
  rights: SplitRights;
  stateLabels: typeof SPLIT_VERSION_STATE_LABELS;
  /** The proposal form's first rows: the parties of the newest confirmed version, else the owner at 100 %. */
  defaults: Array<{ email: string; share: string }>;
  /** The sheet PDF of a version: this path + "/{versionId}". */
  pdfBase: string;
}

export async function loadSplitSection(
  user: User,
  song: SongDetail,
  rights: ReleaseRights | null,
  pdfBase: string,
  ownerEmail: string | null,
): Promise<SplitSectionData> {
  // The song's editors get every party's address for the form's first rows (the sheet shows members by name only).
  const sheet = await loadSplitSheet(song.id, user, { withEvidence: rights !== null });
  const latest = sheet.versions.find((v) => v.state === "in_force" || v.state === "scheduled");
  const defaults = latest
    ? latest.parties.filter((p) => p.status !== "declined").map((p) => ({ email: p.evidence?.email ?? p.email ?? "", share: String(p.shareBps / 100) }))
    : ownerEmail
      ? [{ email: ownerEmail, share: "100" }]
      : [];
  // The evidence (addresses, IPs) is for the PDF: never sent to the page.
  for (const version of sheet.versions) for (const party of version.parties) delete party.evidence;
  return {
    sheet,
    rights: { manage: rights !== null, confirm: rights !== null && canConfirmSplits(user, song) },
    stateLabels: SPLIT_VERSION_STATE_LABELS,
    defaults,
    pdfBase,
  };
}

export interface SplitActionData {
  form: "splits";
  result: SubmissionResult<string[]>;
}

const reply = (result: SubmissionResult<string[]>, status = 400) => data<SplitActionData>({ form: "splits", result }, { status });

export const SPLIT_INTENTS = ["split-propose", "split-confirm", "split-withdraw", "split-resend", "split-accept", "split-decline"] as const;
export type SplitIntent = (typeof SPLIT_INTENTS)[number];

export function isSplitIntent(intent: string): intent is SplitIntent {
  return (SPLIT_INTENTS as readonly string[]).includes(intent);
}

function metaOf(args: RouteArgs): RequestMeta {
  return { ip: args.context.get(requestInfoContext).ip, userAgent: args.request.headers.get("user-agent") ?? "" };
}

/** Handles a split form posted to the song profile at `here`. Parties may only answer. */
export async function splitAction(
  args: RouteArgs,
  intent: SplitIntent,
  formData: FormData,
  user: User,
  song: SongDetail,
  rights: ReleaseRights | null,
  here: string,
) {
  const meta = metaOf(args);
  const back = `${here}#splits`;
  const fail = (
    submission: { reply: (o?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]> },
    error: unknown,
  ) => {
    if (!(error instanceof SplitError)) throw error;
    const result = error.field ? submission.reply({ fieldErrors: { [error.field]: [error.message] } }) : submission.reply({ formErrors: [error.message] });
    return reply(result, error.status);
  };

  if (intent === "split-accept" || intent === "split-decline") {
    const submission = parseForm(formData, { schema: SplitPartyActionSchema });
    if (submission.status !== "success") return reply(submission.reply());
    try {
      const { party } = await answerSplit(user, submission.value.partyId, intent === "split-accept" ? "accepted" : "declined", meta);
      return redirectWithFlash(back, {
        kind: "success",
        message:
          intent === "split-accept" ? `You accepted your ${party.shareBps / 100}% share.` : "You declined your share: it goes back to the artist page's owner.",
      });
    } catch (error) {
      return fail(submission, error);
    }
  }
  if (!rights) throw notFound();

  if (intent === "split-propose") {
    const submission = parseForm(formData, { schema: SplitProposalSchema });
    if (submission.status !== "success") return reply(submission.reply());
    const value = submission.value;
    try {
      const { version } = await proposeSplit(
        user,
        song,
        {
          effectiveFrom: value.effectiveFrom,
          note: value.note,
          parties: value.parties.map((p) => ({ email: p.email, shareBps: percentToBps(p.share)! })),
          recoup: value.recoupParty && value.recoupAmount ? { partyIndex: value.recoupParty - 1, amountMicros: dollarsToMicros(value.recoupAmount)! } : null,
        },
        meta,
      );
      return redirectWithFlash(back, { kind: "success", message: `Version ${version.number} is proposed: every party is invited to accept or decline.` });
    } catch (error) {
      return fail(submission, error);
    }
  }
  if (intent === "split-resend") {
    const submission = parseForm(formData, { schema: SplitPartyActionSchema });
    if (submission.status !== "success") return reply(submission.reply());
    try {
      await resendSplitInvite(user, song, submission.value.partyId);
      return redirectWithFlash(back, { kind: "success", message: "A new invitation link is sent." });
    } catch (error) {
      return fail(submission, error);
    }
  }
  const submission = parseForm(formData, { schema: SplitVersionActionSchema });
  if (submission.status !== "success") return reply(submission.reply());
  try {
    if (intent === "split-confirm") {
      const version = await confirmSplit(user, song, submission.value.versionId, meta);
      return redirectWithFlash(back, { kind: "success", message: `Version ${version.number} is confirmed: in force from ${version.effectiveFrom}.` });
    }
    const version = await withdrawSplit(user, song, submission.value.versionId, meta);
    return redirectWithFlash(back, { kind: "info", message: `Version ${version.number} is withdrawn.` });
  } catch (error) {
    return fail(submission, error);
  }
}

/* ------------------------------------------------------------------ the signed sheet (PDF) */

/** `…/song-profile/{id}/split-sheet/{versionId}`: the version's sheet with every acceptance, for its parties and the song's editors. */
export async function splitSheetPdfLoader(args: RouteArgs, area: "member" | "admin") {
  const user = (
    area === "admin"
      ? requireAdminUser(args.request, args.context).user
      : (await requireMemberAreaAccess(args.request, args.context, args.params.memberId)).user
  ) as User;
  const { song } = await requireSongOrSplitParty(user, args.params.id);
  const versionId = parseId(args.params.versionId);
  const sheet = await loadSplitSheet(song.id, user, { withEvidence: true });
  const version = sheet.versions.find((v) => v.id === versionId);
  if (!version) throw notFound();
  const recoupParty = version.parties.find((p) => p.evidence!.recoupMicros > 0n);
  const input: SplitSheetPdfInput = {
    song: { title: song.title, artistName: song.artist.name, isrc: song.isrc },
    version: {
      number: version.number,
      effectiveFrom: version.effectiveFrom,
      status: SPLIT_VERSION_STATE_LABELS[version.state].toLowerCase(),
      recoup: recoupParty ? { amountMicros: recoupParty.evidence!.recoupMicros, partyName: recoupParty.name } : null,
    },
    proposedBy: version.proposedBy,
    proposedAt: new Date(version.proposedAt),
    confirmedBy: version.confirmedBy,
    confirmedAt: version.confirmedAt ? new Date(version.confirmedAt) : null,
    parties: version.parties.map((p) => ({
      name: p.name,
      email: p.evidence!.email,
      shareBps: p.shareBps,
      status: p.status,
      answeredAt: p.answeredAt ? new Date(p.answeredAt) : null,
      answeredIp: p.evidence!.ip,
    })),
    generatedAt: new Date(),
    appName: env().APP_NAME,
  };
  const pdf = await renderSplitSheetPdf(input);
  const name = splitSheetFileName(input);
  return new Response(new Uint8Array(pdf), {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
