import { z } from "zod";
import { emailField } from "~/modules/accounts/schemas";

/** The song forms' schemas (client-safe; the server checks codes' uniqueness and rights). */

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `The ${label} can be at most ${max} characters.`)
    .optional()
    .transform((v) => v ?? "");

const optionalId = z.number().int().positive().optional();

export const SongDetailsSchema = z
  .object({
    artistId: optionalId,
    title: z.string({ error: "Enter the song's title." }).trim().min(1, "Enter the song's title.").max(200, "The title can be at most 200 characters."),
    version: optionalText(100, "version"),
    isrc: z
      .string()
      .trim()
      .transform((v) => v.replace(/[\s-]/g, "").toUpperCase())
      .optional(),
    iswc: z.string().trim().optional(),
    explicit: z.boolean().optional().default(false),
    languageId: optionalId,
    lyrics: optionalText(20_000, "lyrics"),
    isCover: z.boolean().optional().default(false),
    coverLicenceProvider: optionalText(200, "licence provider"),
    coverLicenceId: optionalText(100, "licence id"),
    coverOriginalWriters: optionalText(500, "list of original writers"),
  })
  .superRefine((value, ctx) => {
    if (!value.isCover) return;
    // A cover may be saved without its licence (the preflight says it blocks); half a licence is a typo.
    if (value.coverLicenceId && !value.coverLicenceProvider) {
      ctx.addIssue({ code: "custom", path: ["coverLicenceProvider"], message: "Name who issued the mechanical licence." });
    }
    if (value.coverLicenceProvider && !value.coverLicenceId) {
      ctx.addIssue({ code: "custom", path: ["coverLicenceId"], message: "Enter the licence's number." });
    }
  });
export type SongDetailsValue = z.output<typeof SongDetailsSchema>;

/** A share as the form shows it ("33.33"), in basis points. */
export function percentToBps(value: string): number | null {
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(value.trim());
  if (!match) return null;
  const bps = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  return bps <= 10_000 ? bps : null;
}

/** The form shows spare blank rows after the writers (no JavaScript needed to add one): trailing blanks are dropped. */
function withoutTrailingBlankRows(rows: unknown) {
  if (!Array.isArray(rows)) return rows;
  const blank = (row: unknown) => !row || (typeof row === "object" && Object.values(row as Record<string, unknown>).every((v) => v === undefined || v === ""));
  const kept = [...rows];
  while (kept.length && blank(kept.at(-1))) kept.pop();
  return kept;
}

export const WritersSchema = z.object({
  writers: z.preprocess(
    withoutTrailingBlankRows,
    z
      .array(
        z.object({
          name: z.string({ error: "Enter the writer's name." }).trim().min(1, "Enter the writer's name.").max(200, "The name can be at most 200 characters."),
          share: z
            .string({ error: "Enter the share, like 50 or 33.33." })
            .trim()
            .refine((v) => percentToBps(v) !== null && percentToBps(v)! > 0, "Enter a share between 0.01 and 100, like 50 or 33.33."),
          proId: optionalId,
          ipi: z
            .string()
            .trim()
            .transform((v) => v.replace(/[\s.-]/g, ""))
            .refine((v) => v === "" || /^[0-9]{9,11}$/.test(v), "An IPI name number has 9 to 11 digits.")
            .optional(),
        }),
        { error: "Add at least one writer." },
      )
      .min(1, "Add at least one writer.")
      .max(100, "A song has at most 100 writers."),
  ),
});
export type WritersValue = z.output<typeof WritersSchema>;

export const AudioSchema = z.object({
  audio: z.instanceof(File, { message: "Choose a WAV or FLAC file." }).refine((f) => f.size > 0, "Choose a WAV or FLAC file."),
});

export const CreditInviteSchema = z.object({
  email: emailField,
  role: z.enum(["producer", "featured_artist"], { error: "Choose producer or featured artist." }),
});

export const CreditRevokeSchema = z.object({ creditId: z.string().uuid() });
