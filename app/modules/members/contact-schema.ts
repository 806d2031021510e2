import { z } from "zod";

/** The Contact us form (/member/{id}/contact-us), shared by the browser and the server. */
export const CONTACT_SUBJECT_MAX = 150;
export const CONTACT_MESSAGE_MAX = 5000;

export const ContactSchema = z.object({
  subject: z
    .string({ error: "Enter a subject." })
    // One line: line breaks and runs of spaces become single spaces.
    .transform((v) => v.replace(/\s+/g, " ").trim())
    // Conform turns the trimmed empty string into "missing", so the inner string carries the message too.
    .pipe(
      z
        .string({ error: "Enter a subject." })
        .min(1, "Enter a subject.")
        .max(CONTACT_SUBJECT_MAX, `The subject can be at most ${CONTACT_SUBJECT_MAX} characters.`),
    ),
  message: z
    .string({ error: "Write your message." })
    .transform((v) => v.replace(/\r\n?/g, "\n").trim())
    .pipe(
      z
        .string({ error: "Write your message." })
        .min(1, "Write your message.")
        .max(CONTACT_MESSAGE_MAX, `The message can be at most ${CONTACT_MESSAGE_MAX} characters.`),
    ),
});
