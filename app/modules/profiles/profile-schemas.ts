import { z } from "zod";
import type { ProfileType, RateUnit, ReferenceKind } from "~/db/schema";
import { IMAGE_MAX_BYTES, IMAGE_MESSAGES, isAcceptedImageType } from "~/modules/images/image-rules";
import { dollarsField } from "~/modules/ledger/money";
import { PROFILE_TYPE_INFO, RATE_UNIT_LABELS, RESERVED_USERNAMES } from "./profile-types";

/**
 * The forms of artist pages and provider profiles, shared by the browser (Conform's client validation)
 * and the server. Repeated rows (rates, credits, links) are Conform list fields (`rates[0].label`, ...):
 * the page always renders a few empty rows besides the filled ones, so they work without JavaScript, and
 * rows left entirely empty are dropped here, so they never count as errors.
 */

export const USERNAME_HINT = "Lower-case letters, digits and single hyphens, 3 to 30 characters. It is part of the page's address.";
export const USERNAME_TAKEN = "That username is taken.";

export const LIMITS = {
  name: 100,
  bio: 5000,
  location: 120,
  links: 10,
  sampleLinks: 10,
  rates: 10,
  credits: 30,
  label: 80,
  url: 500,
  creditText: 120,
} as const;

const rateUnitValues = Object.keys(RATE_UNIT_LABELS) as [RateUnit, ...RateUnit[]];

/** Conform turns an empty input into undefined; an optional text becomes "" so the service sees one shape. */
const optionalText = (max: number, message: string) => z.string().trim().max(max, message).default("");

export const nameField = z
  .string({ error: "Enter a name." })
  .trim()
  .min(1, "Enter a name.")
  .max(LIMITS.name, `The name can be at most ${LIMITS.name} characters.`);

export const usernameField = z
  .string({ error: "Choose a username." })
  .trim()
  .min(1, "Choose a username.")
  .min(3, "Use at least 3 characters.")
  .max(30, "Use at most 30 characters.")
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "Use only lower-case letters, digits and single hyphens (not at the start or end).")
  .refine((v) => !RESERVED_USERNAMES.has(v), "That username is reserved; please choose another.");

export const CreateProfileSchema = z.object({
  name: nameField,
  username: usernameField,
});
export type CreateProfileInput = z.infer<typeof CreateProfileSchema>;

/** An http(s) address (other schemes, such as javascript:, are refused). */
export const webUrlField = z
  .string({ error: "Enter an address." })
  .trim()
  .min(1, "Enter an address.")
  .max(LIMITS.url, `An address can be at most ${LIMITS.url} characters.`)
  .refine((value) => {
    try {
      const url = new URL(value);
      return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.length > 0;
    } catch {
      return false;
    }
  }, "Enter a full web address starting with https:// or http://.");

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === "string" && v.trim() === "");
const rowIsEmpty = (row: unknown) => !row || typeof row !== "object" || Object.values(row).every(isBlank);

/**
 * A list of rows where rows the user left empty are dropped (the form always shows a few spare rows).
 * Empty rows are dropped after validation, so an error keeps the index of the row it belongs to.
 */
function rows<T extends z.ZodType>(row: T, max: number, what: string) {
  return z
    .array(z.preprocess((r) => (rowIsEmpty(r) ? null : r), row.nullable()))
    .optional()
    .transform((list, ctx) => {
      const kept = (list ?? []).filter((r): r is NonNullable<z.output<T>> => r !== null);
      if (kept.length > max) ctx.addIssue({ code: "custom", message: `Add at most ${max} ${what}.` });
      return kept;
    });
}

export const linkRow = z.object({
  label: optionalText(LIMITS.label, `A label can be at most ${LIMITS.label} characters.`),
  url: webUrlField,
});

const RATE_AMOUNT_MESSAGE = "Enter an amount in dollars, like 150 or 150.50.";
/** Rates up to $999,999,999.99 (the column and the page's formatting). */
const RATE_MAX_CENTS = 99_999_999_999n;

/** Cents back to the text the amount field shows ("150.50", "150"). */
export function centsToDollarsText(cents: number): string {
  const whole = Math.trunc(cents / 100);
  const rest = cents % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, "0")}`;
}

export const rateRow = z.object({
  label: z
    .string({ error: "Describe the rate, like “Mixing”." })
    .trim()
    .min(1, "Describe the rate, like “Mixing”.")
    .max(LIMITS.label, `A label can be at most ${LIMITS.label} characters.`),
  amount: z
    .string({ error: "Enter an amount in dollars." })
    .trim()
    .min(1, "Enter an amount in dollars.")
    .transform((value, ctx) => {
      // money.ts's one parser: "$1,500" is $1,500.00, "10,00" is refused (not $1,000.00).
      const field = dollarsField(value, RATE_AMOUNT_MESSAGE, { max: RATE_MAX_CENTS });
      if ("error" in field) {
        ctx.addIssue({ code: "custom", message: field.error });
        return z.NEVER;
      }
      return Number(field.cents);
    }),
  unit: z.enum(rateUnitValues, { error: "Choose what the rate is for." }),
});

const nextYear = () => new Date().getFullYear() + 1;

export const creditRow = z.object({
  title: z
    .string({ error: "Enter the title of the work." })
    .trim()
    .min(1, "Enter the title of the work.")
    .max(LIMITS.creditText, `A title can be at most ${LIMITS.creditText} characters.`),
  role: optionalText(LIMITS.creditText, `A role can be at most ${LIMITS.creditText} characters.`),
  year: z
    .string()
    .trim()
    .regex(/^\d{4}$/, "Enter a year like 2021.")
    .transform(Number)
    .refine((y) => y >= 1900 && y <= nextYear(), { message: `Enter a year between 1900 and ${nextYear()}.` })
    .optional()
    .transform((y) => y ?? null),
});

/** Checkbox groups send their ids as strings; unknown or foreign ids are checked by the service. */
const valueIds = z
  .array(
    z
      .string()
      .regex(/^\d{1,9}$/, "Choose from the list.")
      .transform(Number),
  )
  .optional()
  .transform((ids) => [...new Set(ids ?? [])]);

/** The field name of a reference kind's checkbox group. */
export const referenceField = (kind: ReferenceKind) => `values_${kind}` as const;

/** The details form of `type`: provider types add rates, credits and sample links; values follow the type's kinds. */
export function profileDetailsSchema(type: ProfileType) {
  const info = PROFILE_TYPE_INFO[type];
  const values = Object.fromEntries(info.reference.map((kind) => [referenceField(kind), valueIds])) as Record<
    ReturnType<typeof referenceField>,
    typeof valueIds
  >;
  const base = z.object({
    name: nameField,
    username: usernameField,
    bio: optionalText(LIMITS.bio, `The bio can be at most ${LIMITS.bio} characters.`),
    location: optionalText(LIMITS.location, `The location can be at most ${LIMITS.location} characters.`),
    links: rows(linkRow, LIMITS.links, "links"),
    ...values,
  });
  if (!info.provider) return base;
  return base.extend({
    rates: rows(rateRow, LIMITS.rates, "rates"),
    credits: rows(creditRow, LIMITS.credits, "credits"),
    sampleLinks: rows(linkRow, LIMITS.sampleLinks, "sample links"),
  });
}

export type ProfileDetailsForm = z.output<ReturnType<typeof profileDetailsSchema>>;

/** What the service takes: the form's output with the values of every kind in one map. */
export interface ProfileDetailsInput {
  name: string;
  username: string;
  bio: string;
  location: string;
  links: Array<{ label: string; url: string }>;
  values: Partial<Record<ReferenceKind, number[]>>;
  rates?: Array<{ label: string; amount: number; unit: RateUnit }>;
  credits?: Array<{ title: string; role: string; year: number | null }>;
  sampleLinks?: Array<{ label: string; url: string }>;
}

export function toDetailsInput(type: ProfileType, form: ProfileDetailsForm): ProfileDetailsInput {
  const info = PROFILE_TYPE_INFO[type];
  const record = form as unknown as Record<string, unknown>;
  const values: Partial<Record<ReferenceKind, number[]>> = {};
  for (const kind of info.reference) values[kind] = (record[referenceField(kind)] as number[] | undefined) ?? [];
  return {
    name: form.name,
    username: form.username,
    bio: form.bio,
    location: form.location,
    links: form.links,
    values,
    ...(info.provider
      ? {
          rates: record.rates as ProfileDetailsInput["rates"],
          credits: record.credits as ProfileDetailsInput["credits"],
          sampleLinks: record.sampleLinks as ProfileDetailsInput["sampleLinks"],
        }
      : {}),
  };
}

/** An image upload (hero or avatar): the browser checks size and declared type; the server decodes it. */
export const imageField = z
  .custom<File>((v) => typeof File !== "undefined" && v instanceof File && v.size > 0, IMAGE_MESSAGES.missing)
  .refine((file) => file.size <= IMAGE_MAX_BYTES, IMAGE_MESSAGES.tooLarge)
  .refine((file) => isAcceptedImageType(file.type), IMAGE_MESSAGES.unreadable);

export const HeroImageSchema = z.object({ hero: imageField });
export const ArtistAvatarSchema = z.object({ avatar: imageField });
