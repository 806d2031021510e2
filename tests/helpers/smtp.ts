import { afterAll, beforeAll } from "vitest";
import { useTestSettings } from "../setup/settings";
import { deliverQueuedMail } from "./mail";
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
    /**
     * The next message to this address (or one already received and not yet taken). Mail is a job: the mail
     * queued so far is delivered first, and again while waiting (a request in flight may queue one).
     */
    async next(to: string, timeoutMs = 5000): Promise<ReceivedMail> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        await deliverQueuedMail();
        const index = received.findIndex((m) => m.to.includes(to));
        if (index >= 0) return received.splice(index, 1)[0]!;
        if (Date.now() >= deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, Math.min(50, Math.max(1, deadline - Date.now()))));
      }
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
