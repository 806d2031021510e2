import { z } from "zod";
import { emailField } from "~/modules/accounts/schemas";
import { percentToBps } from "~/modules/catalog/songs/song-schemas";
import { isIsoDate, MAX_SPLIT_PARTIES, sharesTotalProblem } from "./split-rules";

/** The split forms' schemas (client-safe; the services check dates against the song's versions and the ledger). */

/** Like the writers' form: spare blank rows (for adding a party without JavaScript) are dropped when trailing. */
function withoutTrailingBlankRows(rows: unknown) {
  if (!Array.isArray(rows)) return rows;
  const blank = (row: unknown) => !row || (typeof row === "object" && Object.values(row as Record<string, unknown>).every((v) => v === undefined || v === ""));
  const kept = [...rows];
  while (kept.length && blank(kept.at(-1))) kept.pop();
  return kept;
}

/** "1500" or "1500.50" dollars, at most two decimals, to micro-units; null when malformed. */
export function dollarsToMicros(value: string): bigint | null {
  const match = /^(\d{1,9})(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!match) return null;
  return BigInt(match[1]!) * 1_000_000n + BigInt((match[2] ?? "").padEnd(2, "0")) * 10_000n;
}

export const SplitProposalSchema = z
  .object({
    effectiveFrom: z.string({ error: "Enter the date the split starts, like 2027-01-01." }).trim().refine(isIsoDate, "Enter a real date like 2027-01-01."),
    note: z
      .string()
      .trim()
      .max(1000, "The note can be at most 1000 characters.")
      .optional()
      .transform((v) => v ?? ""),
    parties: z.preprocess(
      withoutTrailingBlankRows,
      z
        .array(
          z.object({
            email: emailField,
            share: z
              .string({ error: "Enter the share, like 50 or 33.33." })
              .trim()
              .refine((v) => percentToBps(v) !== null && percentToBps(v)! > 0, "Enter a share between 0.01 and 100, like 50 or 33.33."),
          }),
          { error: "Add at least one party." },
        )
        .min(1, "Add at least one party.")
        .max(MAX_SPLIT_PARTIES, `A split has at most ${MAX_SPLIT_PARTIES} parties.`),
    ),
    /** The party (1-based row number) paid the recoup amount first; empty for none. */
    recoupParty: z.coerce.number().int().min(1).max(MAX_SPLIT_PARTIES).optional(),
    recoupAmount: z
      .string()
      .trim()
      .optional()
      .transform((v) => v ?? ""),
  })
  .superRefine((value, ctx) => {
    const problem = sharesTotalProblem(value.parties.map((p) => percentToBps(p.share) ?? 0));
    if (problem) ctx.addIssue({ code: "custom", path: ["parties"], message: problem });
    const seen = new Map<string, number>();
    value.parties.forEach((p, i) => {
      const key = p.email.toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: "custom", path: ["parties", i, "email"], message: `This address is already party ${seen.get(key)! + 1}.` });
      else seen.set(key, i);
    });
    if (value.recoupAmount !== "") {
      const micros = dollarsToMicros(value.recoupAmount);
      if (micros === null || micros <= 0n)
        ctx.addIssue({ code: "custom", path: ["recoupAmount"], message: "Enter an amount in dollars, like 1500 or 1500.50." });
      if (!value.recoupParty) ctx.addIssue({ code: "custom", path: ["recoupParty"], message: "Choose who recoups this amount first." });
    }
    if (value.recoupParty && value.recoupParty > value.parties.length) {
      ctx.addIssue({ code: "custom", path: ["recoupParty"], message: "Choose one of the parties above." });
    }
    if (value.recoupParty && value.recoupAmount === "") {
      ctx.addIssue({ code: "custom", path: ["recoupAmount"], message: "Enter the amount to recoup, or choose no one." });
    }
  });

/** Confirm, withdraw, accept and decline name the version or the party they act on. */
export const SplitVersionActionSchema = z.object({ versionId: z.coerce.number().int().positive() });
export const SplitPartyActionSchema = z.object({ partyId: z.string().uuid() });
