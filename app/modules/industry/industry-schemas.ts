import { z } from "zod";

/**
 * Managers and venues, the directories administrators maintain: the list's URL query and the form
 * schemas, shared by the pages and the server (one schema for client and server, through Conform).
 * Conform turns an empty field into undefined, so every optional field is simply `.optional()`.
 */

// ---------------------------------------------------------------- list query (?q=&page=&edit=)

export const IndustryListQuerySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});
export type IndustryListQuery = z.infer<typeof IndustryListQuerySchema>;

export function parseIndustryListQuery(params: URLSearchParams): IndustryListQuery {
  return IndustryListQuerySchema.parse({ q: params.get("q") ?? "", page: params.get("page") ?? 1 });
}

// ---------------------------------------------------------------- fields

const requiredName = z.string({ error: "Enter a name." }).trim().min(1, "Enter a name.").max(120, "Use at most 120 characters.");

const optionalText = (max: number) => z.string().trim().max(max, `Use at most ${max} characters.`).optional();

const emailField = z
  .string()
  .trim()
  .max(254, "That email address is too long.")
  .pipe(z.email("Enter a valid email address, like name@example.com."))
  .optional();

const phoneField = z
  .string()
  .trim()
  .regex(/^\+?[0-9(][0-9 ().-]{3,28}[0-9]$/, "Enter a phone number of digits, spaces and + ( ) - . only, like +1 615 555 0100.")
  .optional();

const websiteField = z
  .string()
  .trim()
  .max(200, "Use at most 200 characters.")
  .pipe(z.url({ protocol: /^https?$/, hostname: z.regexes.domain, error: "Enter a full web address, like https://example.com." }))
  .optional();

export const CAPACITY_MAX = 1_000_000;
const capacityMessage = "Enter the capacity as a whole number above 0, like 250.";
/** Digits only (a string schema, so Conform does not coerce "1e3" or " -3" into numbers first). */
const capacityField = z
  .string()
  .trim()
  .regex(/^[0-9]+$/, capacityMessage)
  .transform(Number)
  .pipe(
    z
      .number()
      .positive(capacityMessage)
      .max(CAPACITY_MAX, `Enter a capacity of at most ${CAPACITY_MAX.toLocaleString("en-US")}.`),
  )
  .optional();

export const ARTISTS_MAX = 50;

/**
 * Artist page usernames, separated by commas, spaces or new lines (a leading @ is dropped), without
 * repeats (usernames are unique case-insensitively). Which ones exist is checked by the server.
 */
export function splitUsernames(text: string): string[] {
  const seen = new Set<string>();
  const usernames: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    const username = part.replace(/^@/, "").trim();
    if (!username || seen.has(username.toLowerCase())) continue;
    seen.add(username.toLowerCase());
    usernames.push(username);
  }
  return usernames;
}

const artistsField = z
  .string()
  .max(5_000, "That list is too long.")
  .optional()
  .transform((text) => splitUsernames(text ?? ""))
  .refine((list) => list.length <= ARTISTS_MAX, `Enter at most ${ARTISTS_MAX} artists.`);

const idField = z.number({ error: "This entry was not found." }).int().positive().max(2_147_483_647);

// ---------------------------------------------------------------- managers

export const ManagerFieldsSchema = z.object({
  name: requiredName,
  company: optionalText(120),
  email: emailField,
  phone: phoneField,
  website: websiteField,
  artists: artistsField,
});
export type ManagerInput = z.output<typeof ManagerFieldsSchema>;

export const ManagerCreateSchema = ManagerFieldsSchema.extend({ intent: z.literal("create") });
export const ManagerUpdateSchema = ManagerFieldsSchema.extend({ intent: z.literal("update"), id: idField });

export const ManagerActionSchema = z.discriminatedUnion("intent", [
  ManagerCreateSchema,
  ManagerUpdateSchema,
  z.object({ intent: z.literal("delete"), id: idField }),
]);

// ---------------------------------------------------------------- venues

export const VenueFieldsSchema = z.object({
  name: requiredName,
  city: optionalText(80),
  country: optionalText(80),
  capacity: capacityField,
  email: emailField,
  phone: phoneField,
  website: websiteField,
});
export type VenueInput = z.output<typeof VenueFieldsSchema>;

export const VenueCreateSchema = VenueFieldsSchema.extend({ intent: z.literal("create") });
export const VenueUpdateSchema = VenueFieldsSchema.extend({ intent: z.literal("update"), id: idField });

export const VenueActionSchema = z.discriminatedUnion("intent", [VenueCreateSchema, VenueUpdateSchema, z.object({ intent: z.literal("delete"), id: idField })]);

export const INDUSTRY_INTENTS = ["create", "update", "delete"] as const;
