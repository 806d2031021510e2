import { z } from "zod";
import { VERSION_CONTENT_MAX, VERSION_NAME_MAX } from "./versions";

/** The admin publish form's schema, shared by the page (Conform) and publishVersion. */
export const PublishVersionSchema = z.object({
  name: z
    .string({ error: "Enter a version name." })
    .transform((v) => v.replace(/\s+/g, " ").trim())
    // Conform turns the trimmed empty string into "missing", so the inner string carries the message too.
    .pipe(
      z
        .string({ error: "Enter a version name." })
        .min(1, "Enter a version name.")
        .max(VERSION_NAME_MAX, `The name can be at most ${VERSION_NAME_MAX} characters.`),
    ),
  content: z
    .string({ error: "Describe what is new." })
    .transform((v) => v.replace(/\r\n?/g, "\n").trim())
    .pipe(
      z
        .string({ error: "Describe what is new." })
        .min(1, "Describe what is new.")
        .max(VERSION_CONTENT_MAX, `The content can be at most ${VERSION_CONTENT_MAX.toLocaleString("en-US")} characters.`),
    ),
});
