import { z } from "zod";

/** Limits shared by the form (maxLength) and the server. */
export const DOCUMENT_NAME_MAX = 120;
export const DOCUMENT_SLUG_MAX = 80;
export const DOCUMENT_CONTENT_MAX = 200_000;

/** The slug is the public address (/legal-terms/{slug}) and the page title (hyphens read as spaces). */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** What the create and edit forms send; `intent` says what the edit page's button asked for. */
export const DocumentFormSchema = z.object({
  name: z
    .string({ error: "Enter the document's name." })
    .trim()
    .min(1, "Enter the document's name.")
    .max(DOCUMENT_NAME_MAX, `Use at most ${DOCUMENT_NAME_MAX} characters.`),
  slug: z
    .string({ error: "Enter the slug: the end of the document's address." })
    .trim()
    .toLowerCase()
    .max(DOCUMENT_SLUG_MAX, `Use at most ${DOCUMENT_SLUG_MAX} characters.`)
    .regex(SLUG_PATTERN, "Use lowercase letters, digits and single hyphens between words, e.g. terms-of-service."),
  required: z.preprocess((value) => value === "on" || value === "true", z.boolean()),
  content: z
    .string({ error: "Write the document's text." })
    .max(DOCUMENT_CONTENT_MAX, `The text is too long (at most ${DOCUMENT_CONTENT_MAX.toLocaleString("en-US")} characters of HTML).`),
  intent: z.enum(["save", "publish"]).catch("save"),
});
export type DocumentFormValues = z.infer<typeof DocumentFormSchema>;
