import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { contactMessages } from "~/db/schema";
import { createUser, uniqueEmail } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { useSmtpListener } from "../../../tests/helpers/smtp";
import { ContactSchema } from "./contact-schema";
import { CONTACT_LIMIT, ContactRateLimitedError, sendContactMessage } from "./contact.server";

useTestDatabase();
const smtp = useSmtpListener();
let admin: Awaited<ReturnType<typeof createUser>>;
let otherAdmin: Awaited<ReturnType<typeof createUser>>;
let suspendedAdmin: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  admin = await createUser({ acctType: 2, roleId: 1, email: uniqueEmail("admin") });
  otherAdmin = await createUser({ acctType: 2, roleId: 2, email: uniqueEmail("admin2") });
  suspendedAdmin = await createUser({ acctType: 2, roleId: 2, email: uniqueEmail("gone"), suspendedAt: new Date() });
});

describe("sendContactMessage", () => {
  it("keeps the message and emails every active administrator, with the member's name and a reply-to", async () => {
    const member = await createUser({ name: "Mina", lastName: "Member", email: uniqueEmail("mina") });
    const bystander = await createUser();
    const result = await sendContactMessage({
      userId: member.id,
      subject: "Payout question",
      message: "Hello,\nwhen is the next payout?\n<b>thanks</b>",
    });
    expect(result.notified).toBe(2);

    const [row] = await db().select().from(contactMessages).where(eq(contactMessages.id, result.id));
    expect(row).toMatchObject({ userId: member.id, subject: "Payout question", message: "Hello,\nwhen is the next payout?\n<b>thanks</b>" });

    for (const to of [admin.email, otherAdmin.email]) {
      const mail = await smtp.next(to);
      expect(mail.subject).toBe("Contact us: Payout question");
      expect(mail.replyTo).toBe(member.email);
      expect(mail.text).toContain(`Mina Member <${member.email}>`);
      expect(mail.text).toContain("when is the next payout?");
      expect(mail.text).toContain(`/admin/member/${member.id}`);
    }
    await expect(smtp.next(suspendedAdmin.email, 300)).rejects.toThrow(/No mail/);
    await expect(smtp.next(member.email, 100)).rejects.toThrow(/No mail/);
    await expect(smtp.next(bystander.email, 100)).rejects.toThrow(/No mail/);
  });

  it(`allows ${CONTACT_LIMIT.count} messages an hour per user, then refuses with a clear message and keeps nothing`, async () => {
    const member = await createUser();
    for (let i = 0; i < CONTACT_LIMIT.count; i++) {
      await sendContactMessage({ userId: member.id, subject: `Note ${i}`, message: "Hi" });
    }
    const error = await sendContactMessage({ userId: member.id, subject: "One more", message: "Hi" }).catch((e) => e);
    expect(error).toBeInstanceOf(ContactRateLimitedError);
    expect(error.message).toMatch(/Please try again in (a minute|\d+ minutes)\./);
    expect(await db().select().from(contactMessages).where(eq(contactMessages.userId, member.id))).toHaveLength(CONTACT_LIMIT.count);
    // Another member is not held back.
    const other = await createUser();
    await expect(sendContactMessage({ userId: other.id, subject: "Mine", message: "Hi" })).resolves.toMatchObject({ notified: 2 });
  });
});

describe("ContactSchema", () => {
  const parse = (value: Record<string, unknown>) => ContactSchema.safeParse(value);

  it("keeps the subject on one line and the message's paragraphs", () => {
    const parsed = parse({ subject: "  Two\r\nlines  ", message: "  First\r\n\r\nSecond  " });
    expect(parsed.success && parsed.data).toEqual({ subject: "Two lines", message: "First\n\nSecond" });
  });

  it("requires both and holds them to 150 and 5000 characters", () => {
    expect(parse({ subject: " ", message: "x" }).error?.issues[0]?.message).toBe("Enter a subject.");
    expect(parse({ subject: "x", message: "\n" }).error?.issues[0]?.message).toBe("Write your message.");
    expect(parse({ subject: "x".repeat(150), message: "x".repeat(5000) }).success).toBe(true);
    expect(parse({ subject: "x".repeat(151), message: "x" }).error?.issues[0]?.message).toBe("The subject can be at most 150 characters.");
    expect(parse({ subject: "x", message: "x".repeat(5001) }).error?.issues[0]?.message).toBe("The message can be at most 5000 characters.");
  });
});
