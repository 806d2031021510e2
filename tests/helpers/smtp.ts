import { afterAll, beforeAll } from "vitest";
import { useTestSettings } from "../setup/settings";
import { simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
  /** The Reply-To addresses, comma-separated ("" when none). */
  replyTo: string;
}

/** A real SMTP listener on a free port; the app sends to it through SMTP_URL. */
export async function startSmtpListener() {
  const received: ReceivedMail[] = [];
  const waiters: Array<{ to: string; resolve: (m: ReceivedMail) => void }> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const text = parsed.text ?? "";
          const mail: ReceivedMail = {
            to: session.envelope.rcptTo.map((r) => r.address).join(","),
            subject: parsed.subject ?? "",
            text,
            links: [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]),
            replyTo: (parsed.replyTo?.value ?? []).map((a) => a.address ?? "").join(","),
          };
          received.push(mail);
          for (const w of waiters.filter((w) => mail.to.includes(w.to))) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve(mail);
          }
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The next message to this address (or one already received and not yet taken). */
    next(to: string, timeoutMs = 5000): Promise<ReceivedMail> {
      const index = received.findIndex((m) => m.to.includes(to));
      if (index >= 0) return Promise.resolve(received.splice(index, 1)[0]!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`No mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          to,
          resolve: (m) => {
            clearTimeout(timer);
            received.splice(received.indexOf(m), 1);
            resolve(m);
          },
        });
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * For a test file: starts the listener before its tests, points the app's mail at it (with any extra
 * settings), and stops it afterwards. Registered hooks run in order, so a later beforeAll sees it.
 */
export function useSmtpListener(extraSettings: Record<string, string> = {}) {
  let listener: Awaited<ReturnType<typeof startSmtpListener>> | undefined;
  beforeAll(async () => {
    listener = await startSmtpListener();
    useTestSettings({ SMTP_URL: listener.url, ...extraSettings });
  });
  afterAll(() => listener?.close());
  return {
    next: (to: string, timeoutMs?: number) => listener!.next(to, timeoutMs),
  };
}
