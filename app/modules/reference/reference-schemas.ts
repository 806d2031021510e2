import { z } from "zod";
import type { ReferenceKind } from "~/db/schema";
import { DJ_SKILL, REFERENCE_LABELS, SONGWRITER_SKILL } from "~/modules/profiles/profile-types";

/**
 * Reference data admin (genres, skills, instruments, PROs, languages), shared by the page and the server:
 * the five pages, the list's URL query and the form schemas (one schema for client and server, via Conform).
 */

// ---------------------------------------------------------------- the five pages

export interface ReferencePageInfo {
  kind: ReferenceKind;
  /** "Genre" / "Genres", from the profile types' shared labels. */
  singular: string;
  plural: string;
  /** The admin page: /admin/{segment}. */
  path: string;
  /** Lower-case noun for sentences: "genre", "PRO". */
  noun: string;
  nounPlural: string;
}

const page = (kind: ReferenceKind, segment: string): ReferencePageInfo => {
  const { singular, plural } = REFERENCE_LABELS[kind];
  const lower = kind !== "pro";
  return {
    kind,
    singular,
    plural,
    path: `/admin/${segment}`,
    noun: lower ? singular.toLowerCase() : singular,
    nounPlural: lower ? plural.toLowerCase() : plural,
  };
};

export const REFERENCE_PAGES: Record<ReferenceKind, ReferencePageInfo> = {
  genre: page("genre", "genres"),
  skill: page("skill", "skills"),
  instrument: page("instrument", "instruments"),
  language: page("language", "languages"),
  pro: page("pro", "pros"),
};

/** The tab bar's order. Languages is reached only from here (the admin menu lists the other four, as the spec says). */
export const REFERENCE_TABS: ReferenceKind[] = ["genre", "skill", "instrument", "pro", "language"];

/**
 * Skills the admin DJs and Songwriters lists find by name: renaming one would empty its list, so it is refused.
 * Returns the list's name for such a skill (compared case-insensitively, like the unique index), else null.
 */
export function protectedSkillList(kind: ReferenceKind, name: string): "DJs" | "Songwriters" | null {
  if (kind !== "skill") return null;
  const lower = name.trim().toLowerCase();
  if (lower === DJ_SKILL.toLowerCase()) return "DJs";
  if (lower === SONGWRITER_SKILL.toLowerCase()) return "Songwriters";
  return null;
}

// ---------------------------------------------------------------- list query (?q=&status=&page=)

export const REFERENCE_STATUSES = ["all", "active", "retired"] as const;
export type ReferenceStatusFilter = (typeof REFERENCE_STATUSES)[number];
export const REFERENCE_STATUS_LABELS: Record<ReferenceStatusFilter, string> = {
  all: "All",
  active: "Active",
  retired: "Retired",
};

/** Anything malformed in the URL falls back to "everything" / page 1 rather than an error page. */
export const ReferenceListQuerySchema = z.object({
  q: z.string().trim().max(100).catch(""),
  status: z.enum(REFERENCE_STATUSES).catch("all"),
  page: z.coerce.number().int().min(1).max(1_000_000).catch(1),
});
export type ReferenceListQuery = z.infer<typeof ReferenceListQuerySchema>;

export function parseReferenceListQuery(params: URLSearchParams): ReferenceListQuery {
  return ReferenceListQuerySchema.parse({
    q: params.get("q") ?? "",
    status: params.get("status") || "all",
    page: params.get("page") ?? 1,
  });
}

// ---------------------------------------------------------------- forms

export const NAME_MAX = 80;

const nameField = z.string({ error: "Enter a name." }).trim().min(1, "Enter a name.").max(NAME_MAX, `Use at most ${NAME_MAX} characters.`);

const countryField = z.string({ error: "Enter the country." }).trim().min(1, "Enter the country.").max(80, "Use at most 80 characters.");

/** Optional; when given, a full https address (Conform turns an empty field into undefined). */
const websiteField = z
  .string()
  .trim()
  .max(200, "Use at most 200 characters.")
  .pipe(z.url({ protocol: /^https$/, hostname: z.regexes.domain, error: "Enter a full https address, like https://www.ascap.com." }))
  .optional();

/** Optional; a short upper-case code (typed in any case, stored in capitals). */
const codeField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9][A-Z0-9-]{0,11}$/, "Use up to 12 letters, digits or hyphens, like ASCAP.")
  .optional();

const idField = z.number({ error: "This value was not found." }).int().positive().max(2_147_483_647);

export const ReferenceFieldsSchema = z.object({ name: nameField });
export const ProFieldsSchema = z.object({ name: nameField, country: countryField, website: websiteField, code: codeField });

/** What create and update take: the name, and for PROs their country, website and code. */
export interface ReferenceInput {
  name: string;
  country?: string;
  website?: string;
  code?: string;
}

function fieldsFor(kind: ReferenceKind) {
  return kind === "pro" ? ProFieldsSchema : ReferenceFieldsSchema;
}

export function referenceCreateSchema(kind: ReferenceKind) {
  return fieldsFor(kind).extend({ intent: z.literal("create") });
}

export function referenceUpdateSchema(kind: ReferenceKind) {
  return fieldsFor(kind).extend({ intent: z.literal("update"), id: idField });
}

export const REFERENCE_INTENTS = ["create", "update", "retire", "restore"] as const;

/** Every form of a reference page posts here, told apart by `intent`. */
export function referenceActionSchema(kind: ReferenceKind) {
  return z.discriminatedUnion("intent", [
    referenceCreateSchema(kind),
    referenceUpdateSchema(kind),
    z.object({ intent: z.literal("retire"), id: idField }),
    z.object({ intent: z.literal("restore"), id: idField }),
  ]);
}
