import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { routeError } from "~/modules/http/route-errors.server";

/**
 * The one way an action reads its form. Every action calls `readForm` instead of `request.formData()`,
 * and `parseForm` instead of Conform's `parseWithZod`, so that:
 * - a body that is not a form answers 415, and one that cannot be read (multipart without its boundary,
 *   cut short) answers 400, with a clear message instead of a 500;
 * - list fields (`links[3].url`, checkbox groups) are capped before Conform builds arrays from them:
 *   `links[99999999].url` would make a 100-million-slot array that zod then walks for seconds;
 * - control characters (NUL among them, which PostgreSQL refuses) come back as a message beside the field.
 * The body's size is limited before any of this, by the HTTP layer (server/app.js).
 */

/** Highest row index a list field may use; every list in the product stays far below it (30 credits at most). */
export const MAX_LIST_INDEX = 99;
/** A form with more fields than this is not one of ours. */
export const MAX_FORM_FIELDS = 1000;

export const FORM_BODY_MESSAGES = {
  unsupportedType: "This address accepts a form (application/x-www-form-urlencoded or multipart/form-data) only.",
  unreadable: "The form could not be read. Please go back and send it again.",
  tooManyRows: `A list in this form has more rows than allowed (at most ${MAX_LIST_INDEX + 1}).`,
  tooManyFields: `This form has more fields than allowed (at most ${MAX_FORM_FIELDS}).`,
  controlCharacters: "Remove the invisible control characters from this field.",
} as const;

const FORM_TYPES = /^(?:application\/x-www-form-urlencoded|multipart\/form-data)\s*(?:;|$)/i;
const LIST_INDEX = /\[(\d+)\]/g;

export async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!FORM_TYPES.test(type)) throw routeError(415, FORM_BODY_MESSAGES.unsupportedType);
  let formData: FormData;
  try {
    formData = await request.formData();
  } catch {
    throw routeError(400, FORM_BODY_MESSAGES.unreadable);
  }
  let fields = 0;
  for (const name of formData.keys()) {
    if (++fields > MAX_FORM_FIELDS) throw routeError(400, FORM_BODY_MESSAGES.tooManyFields);
    for (const match of name.matchAll(LIST_INDEX)) {
      // Compared as text first: "[99999999999999999999]" is no safe integer.
      if (match[1]!.length > 3 || Number(match[1]) > MAX_LIST_INDEX) throw routeError(400, FORM_BODY_MESSAGES.tooManyRows);
    }
  }
  return formData;
}

/** C0 controls and DEL, except tab, line feed and carriage return (which textareas send). */
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * Conform's `parseWithZod` with the control-character rule in front of the form's own schema. The rule
 * runs over the whole payload, so it covers every text field of every form, list rows included, and
 * reports each offending field by its own name.
 */
export function parseForm<Schema extends z.ZodType>(formData: FormData, options: { schema: Schema }) {
  const guarded = z.preprocess((payload, ctx) => {
    for (const path of controlCharacterPaths(payload)) {
      ctx.addIssue({ code: "custom", path, message: FORM_BODY_MESSAGES.controlCharacters, input: payload });
    }
    return payload;
  }, options.schema);
  return parseWithZod(formData, { schema: guarded as unknown as Schema });
}

function controlCharacterPaths(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (typeof value === "string") return CONTROL_CHARACTERS.test(value) ? [path] : [];
  if (Array.isArray(value)) return value.flatMap((item, index) => controlCharacterPaths(item, [...path, index]));
  if (value && typeof value === "object" && !(value instanceof Blob)) {
    return Object.entries(value).flatMap(([key, item]) => controlCharacterPaths(item, [...path, key]));
  }
  return [];
}
