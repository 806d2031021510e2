import { z } from "zod";
import { releaseTypes } from "~/db/schema";
import { REVIEW_FIELDS, SLUG_PATTERN, STORE_CODES, TERRITORY_CODES, WORLDWIDE } from "./release-options";

/** The release forms' schemas (client-safe; the server re-checks what needs the database). */

const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `The ${label} can be at most ${max} characters.`)
    .optional()
    .transform((v) => v ?? "");

const optionalId = z.number().int().positive().optional();
const date = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use a date like 2027-03-01.")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), "This date does not exist.");

export const ReleaseDetailsSchema = z
  .object({
    artistId: optionalId,
    title: z.string({ error: "Enter the release's title." }).trim().min(1, "Enter the release's title.").max(200, "The title can be at most 200 characters."),
    slug: z
      .string()
      .trim()
      .toLowerCase()
      .max(80, "The address can be at most 80 characters.")
      .regex(SLUG_PATTERN, "Use lowercase letters, digits and single hyphens.")
      .optional(),
    type: z.enum(releaseTypes, { error: "Choose Single, EP or Album." }),
    upc: z
      .string()
      .trim()
      .transform((v) => v.replace(/[\s-]/g, ""))
      .optional(),
    label: optionalText(200, "label"),
    pLine: optionalText(200, "℗ line"),
    cLine: optionalText(200, "© line"),
    primaryGenreId: optionalId,
    secondaryGenreId: optionalId,
    languageId: optionalId,
    releaseDate: date.optional(),
    previouslyReleased: z.boolean().optional().default(false),
    previousReleaseDate: date.optional(),
    parentalAdvisory: z.boolean().optional().default(false),
  })
  .superRefine((value, ctx) => {
    if (value.previouslyReleased && !value.previousReleaseDate) {
      ctx.addIssue({ code: "custom", path: ["previousReleaseDate"], message: "A re-release needs the date it was first released." });
    }
    if (value.previouslyReleased && value.previousReleaseDate && value.releaseDate && value.previousReleaseDate > value.releaseDate) {
      ctx.addIssue({ code: "custom", path: ["previousReleaseDate"], message: "The original date comes before the new release date." });
    }
    if (value.secondaryGenreId && value.secondaryGenreId === value.primaryGenreId) {
      ctx.addIssue({ code: "custom", path: ["secondaryGenreId"], message: "Choose a different secondary genre, or none." });
    }
  });
export type ReleaseDetailsValue = z.output<typeof ReleaseDetailsSchema>;

export const ReleaseStoresSchema = z
  .object({
    stores: z
      .array(
        z.string().refine((s) => STORE_CODES.includes(s), "Choose stores from the list."),
        { error: "Choose at least one store." },
      )
      .min(1, "Choose at least one store."),
    worldwide: z.boolean().optional().default(false),
    territories: z
      .array(z.string().refine((s) => TERRITORY_CODES.includes(s), "Choose territories from the list."))
      .optional()
      .default([]),
  })
  .superRefine((value, ctx) => {
    if (!value.worldwide && value.territories.length === 0) {
      ctx.addIssue({ code: "custom", path: ["territories"], message: "Choose worldwide or at least one territory." });
    }
  })
  .transform((value) => ({ stores: [...new Set(value.stores)], territories: value.worldwide ? [WORLDWIDE] : [...new Set(value.territories)] }));

export const AddTrackSchema = z.object({ songId: z.number({ error: "Choose a song." }).int().positive() });
export const RemoveTrackSchema = z.object({ songId: z.number().int().positive() });
export const MoveTrackSchema = z.object({ songId: z.number().int().positive(), direction: z.enum(["up", "down"]) });

/**
 * A new track made in the distribution flow (new-track.server.ts): the song's title and version, its ISRC or
 * "assign one" (the platform's range, at submission), explicit or not, and its writers (optional, equal shares).
 * The audio file travels beside these fields in the same multipart body.
 */
export const NewTrackSchema = z
  .object({
    title: z.string({ error: "Enter the track's title." }).trim().min(1, "Enter the track's title.").max(200, "The title can be at most 200 characters."),
    version: optionalText(100, "version"),
    isrcChoice: z.enum(["assign", "have"], { error: "Choose whether you have an ISRC." }).default("assign"),
    isrc: z
      .string()
      .trim()
      .transform((v) => v.replace(/[\s-]/g, "").toUpperCase())
      .optional(),
    explicit: z.boolean().optional().default(false),
    writers: optionalText(1000, "list of writers").refine(
      (v) => v.split(/[,\n]/).filter((n) => n.trim()).length <= 20,
      "Name at most 20 writers here; add more on the song's page.",
    ),
  })
  .superRefine((value, ctx) => {
    if (value.isrcChoice === "have" && !value.isrc)
      ctx.addIssue({ code: "custom", path: ["isrc"], message: "Enter the ISRC, or choose to have one assigned." });
  });
export type NewTrackValue = z.output<typeof NewTrackSchema>;

export const CoverSchema = z.object({
  cover: z.instanceof(File, { message: "Choose an image file." }).refine((f) => f.size > 0, "Choose an image file."),
});

export const TakedownSchema = z.object({
  reason: z
    .string({ error: "Say why the release should be taken down." })
    .trim()
    .min(5, "Say why the release should be taken down.")
    .max(1000, "At most 1,000 characters."),
});

const reviewFieldShape = Object.fromEntries(
  REVIEW_FIELDS.map(({ field }) => [field, z.string().trim().max(1000, "At most 1,000 characters.").optional()]),
) as Record<(typeof REVIEW_FIELDS)[number]["field"], z.ZodOptional<z.ZodString>>;

/** Reject: a reason for one field at least (`reasons.title`, `reasons.cover`...). */
export const RejectSchema = z
  .object({ reasons: z.object(reviewFieldShape).optional().default({}) })
  .superRefine((value, ctx) => {
    if (!Object.values(value.reasons).some((v) => v && v.length > 0)) {
      ctx.addIssue({ code: "custom", path: ["reasons"], message: "Give the reason beside at least one field." });
    }
  })
  .transform((value) =>
    REVIEW_FIELDS.flatMap(({ field }) => {
      const message = value.reasons[field];
      return message ? [{ field, message }] : [];
    }),
  );
