/**
 * The suite's mail server: a real SMTP listener (smtp-server), started by playwright.config.ts as a
 * webServer, that the app sends every message to through SMTP_URL. Each message received is written to
 * E2E_DATA_DIR/outbox/<time>-<random>.json in the shape tests/e2e/support/outbox.ts reads (the same shape
 * the app's own outbox transport writes), so every e2e mail travels over real SMTP.
 */
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

const port = Number(process.env.SMTP_MAILBOX_PORT ?? 3213);
const outbox = path.join(process.env.SMTP_MAILBOX_DIR ?? ".", "outbox");

/** A header exactly as the sender wrote it (mailparser re-formats addresses), or "" when absent. */
function rawHeader(parsed, name) {
  const line = parsed.headerLines.find((h) => h.key === name)?.line ?? "";
  return line.slice(line.indexOf(":") + 1).trim();
}

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS", "AUTH"],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then(async (parsed) => {
        const text = parsed.text ?? "";
        const mail = {
          from: rawHeader(parsed, "from"),
          to: session.envelope.rcptTo.map((r) => r.address).join(","),
          subject: parsed.subject ?? "",
          text,
          html: typeof parsed.html === "string" ? parsed.html : "",
          // As the app wrote it (`"Name" <address>`); SMTP headers drop the quotes.
          ...(parsed.replyTo ? { replyTo: parsed.replyTo.value.map((a) => (a.name ? `"${a.name}" <${a.address}>` : a.address)).join(", ") } : {}),
          links: [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]),
          sentAt: new Date().toISOString(),
        };
        await fs.mkdir(outbox, { recursive: true });
        const name = `${mail.sentAt.replace(/[:.]/g, "-")}-${crypto.randomBytes(4).toString("hex")}.json`;
        // Written whole under a temporary name, then renamed: a reader never sees half a file.
        const file = path.join(outbox, name);
        await fs.writeFile(`${file}.partial`, JSON.stringify(mail, null, 2));
        await fs.rename(`${file}.partial`, file);
      })
      .then(() => callback(), callback);
  },
});

server.listen(port, "127.0.0.1", () => console.log(`[smtp-mailbox] listening on 127.0.0.1:${port}, writing to ${outbox}`));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
