import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { oneTimeTokens, sessions, users } from "~/db/schema";
import { createUser, TEST_PASSWORD, uniqueEmail } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { useSmtpListener } from "../../../tests/helpers/smtp";
import {
  activateAccount,
  attemptLogin,
  checkTokenLink,
  createPendingAccount,
  EmailTakenError,
  sendAlreadyRegisteredEmail,
  findUserByEmail,
  INVALID_CREDENTIALS,
  registerMember,
  requestPasswordReset,
  resetPassword,
  verifyEmail,
} from "./accounts.server";
import { startUserSession } from "./session.server";

useTestDatabase();
const smtp = useSmtpListener({ LOGIN_LIMIT_PER_ACCOUNT: "3", LOGIN_LIMIT_PER_ACCOUNT_GLOBAL: "6", LOGIN_LIMIT_PER_IP: "50" });

function tokenFromVerifyLink(link: string) {
  const url = new URL(link);
  const [, , id, token] = url.pathname.split("/");
  return { url: link, userId: Number(id), token: token! };
}

describe("registration and email verification", () => {
  it("creates an unverified member, mails a signed link, and the link verifies once", async () => {
    const email = uniqueEmail("reg");
    const user = await registerMember({ name: "Rae", lastName: "Reg", email, password: "a-good-password" });
    expect(user.acctType).toBe(1);
    expect(user.roleId).toBe(5);
    expect(user.emailVerifiedAt).toBeNull();

    const denied = await attemptLogin({ email, password: "a-good-password", ip: "10.0.0.1" });
    expect(denied).toMatchObject({ ok: false, reason: "unverified" });
    await smtp.next(email); // the first link, sent at registration
    const mail = await smtp.next(email); // a fresh one, sent by the refused login
    expect(mail.subject).toMatch(/Verify your email address/);
    const link = tokenFromVerifyLink(mail.links[0]!);
    expect(link.userId).toBe(user.id);

    expect(await verifyEmail(link)).toBe("verified");
    expect((await findUserByEmail(email))!.emailVerifiedAt).toBeInstanceOf(Date);
    expect(await verifyEmail(link)).toBe("invalid_link");
    expect(await attemptLogin({ email, password: "a-good-password", ip: "10.0.0.1" })).toMatchObject({ ok: true });
  });

  it("answers 'invalid_signature' to a tampered link and changes nothing", async () => {
    const email = uniqueEmail("tamper");
    await registerMember({ name: "T", lastName: "T", email, password: "a-good-password" });
    const link = tokenFromVerifyLink((await smtp.next(email)).links[0]!);
    const tampered = link.url.replace(/signature=[0-9a-f]{4}/, "signature=ffff");
    expect(await verifyEmail({ ...link, url: tampered })).toBe("invalid_signature");
    const otherUser = await createUser({ emailVerifiedAt: null });
    const moved = link.url.replace(`/email-verify/${link.userId}/`, `/email-verify/${otherUser.id}/`);
    expect(await verifyEmail({ ...link, userId: otherUser.id, url: moved })).toBe("invalid_signature");
    expect((await findUserByEmail(email))!.emailVerifiedAt).toBeNull();
  });

  it("refuses a second account for the same address, whatever its case", async () => {
    const email = uniqueEmail("dup");
    await registerMember({ name: "A", lastName: "B", email, password: "a-good-password" });
    await expect(registerMember({ name: "A", lastName: "B", email: email.toUpperCase(), password: "a-good-password" })).rejects.toBeInstanceOf(EmailTakenError);
  });

  it("tells the owner of a taken address that someone tried to register with it", async () => {
    const owner = await createUser({ name: "Olga" });
    await sendAlreadyRegisteredEmail(owner.email.toUpperCase());
    const mail = await smtp.next(owner.email);
    expect(mail.subject).toBe("Someone tried to create a Backline account with your address");
    expect(mail.text).toContain("You already have an account, so nothing was created.");
    expect(mail.text).toContain("/forgot-password");
    // An address without an account gets nothing.
    await sendAlreadyRegisteredEmail(uniqueEmail("nobody"));
  });
});

describe("login", () => {
  it("gives one generic message for a wrong password and for an unknown email", async () => {
    const user = await createUser();
    const wrong = await attemptLogin({ email: user.email, password: "nope", ip: "10.0.1.1" });
    const unknown = await attemptLogin({ email: uniqueEmail("ghost"), password: "nope", ip: "10.0.1.1" });
    expect(wrong).toEqual({ ok: false, reason: "invalid", status: 400, message: INVALID_CREDENTIALS });
    expect(unknown).toEqual(wrong);
  });

  it("finds the account case-insensitively", async () => {
    const user = await createUser();
    expect(await attemptLogin({ email: ` ${user.email.toUpperCase()} `, password: TEST_PASSWORD, ip: "10.0.1.2" })).toMatchObject({
      ok: true,
    });
  });

  it("locks an account for the address that failed, even with the right password, and not for another", async () => {
    const user = await createUser();
    for (let i = 0; i < 3; i++) {
      expect(await attemptLogin({ email: user.email, password: "bad", ip: "10.0.2.1" })).toMatchObject({ reason: "invalid" });
    }
    const locked = await attemptLogin({ email: user.email, password: TEST_PASSWORD, ip: "10.0.2.1" });
    expect(locked).toMatchObject({ ok: false, reason: "rate_limited", status: 429 });
    if (!locked.ok) expect(locked.message).toMatch(/Too many login attempts\. Please try again in/);
    // The owner, elsewhere, is not locked out by someone else's failures.
    expect(await attemptLogin({ email: user.email, password: TEST_PASSWORD, ip: "10.0.2.2" })).toMatchObject({ ok: true });
  });

  it("locks the account everywhere once failures from many addresses reach the global limit", async () => {
    const user = await createUser();
    for (let i = 0; i < 6; i++) {
      expect(await attemptLogin({ email: user.email, password: "bad", ip: `10.0.6.${i}` })).toMatchObject({ reason: "invalid" });
    }
    expect(await attemptLogin({ email: user.email, password: TEST_PASSWORD, ip: "10.0.6.99" })).toMatchObject({ reason: "rate_limited" });
  });

  it("never counts a success: an office behind one address logs in as often as it needs", async () => {
    const user = await createUser();
    for (let i = 0; i < 60; i++) {
      expect(await attemptLogin({ email: user.email, password: TEST_PASSWORD, ip: "10.0.7.1" })).toMatchObject({ ok: true });
    }
  });

  it("a success clears the account's failure count for that address", async () => {
    const user = await createUser();
    await attemptLogin({ email: user.email, password: "bad", ip: "10.0.3.1" });
    await attemptLogin({ email: user.email, password: "bad", ip: "10.0.3.1" });
    expect(await attemptLogin({ email: user.email, password: TEST_PASSWORD, ip: "10.0.3.1" })).toMatchObject({ ok: true });
    await attemptLogin({ email: user.email, password: "bad", ip: "10.0.3.1" });
    await attemptLogin({ email: user.email, password: "bad", ip: "10.0.3.1" });
    expect(await attemptLogin({ email: user.email, password: TEST_PASSWORD, ip: "10.0.3.1" })).toMatchObject({ ok: true });
  });

  it("limits failures per IP across accounts", async () => {
    const user = await createUser();
    for (let i = 0; i < 50; i++) await attemptLogin({ email: uniqueEmail("spray"), password: "x", ip: "10.0.4.4" });
    expect(await attemptLogin({ email: user.email, password: TEST_PASSWORD, ip: "10.0.4.4" })).toMatchObject({
      reason: "rate_limited",
    });
    expect(await attemptLogin({ email: user.email, password: TEST_PASSWORD, ip: "10.0.4.5" })).toMatchObject({ ok: true });
  });

  it("refuses an account that was never activated", async () => {
    const user = await createUser({ activatedAt: null });
    expect(await attemptLogin({ email: user.email, password: TEST_PASSWORD, ip: "10.0.5.1" })).toMatchObject({
      reason: "not_activated",
    });
  });
});

describe("password reset", () => {
  it("says nothing and sends nothing for an unknown address", async () => {
    const email = uniqueEmail("nobody");
    await requestPasswordReset(email, "10.0.6.1");
    await expect(smtp.next(email, 500)).rejects.toThrow(/No mail/);
  });

  it("resets once, ends every session, and keeps the old password from working", async () => {
    const user = await createUser();
    await startUserSession(new Request("http://localhost/login"), { userId: user.id, ip: "10.0.6.2", redirectTo: "/" });
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);

    await requestPasswordReset(user.email, "10.0.6.2");
    const link = (await smtp.next(user.email)).links[0]!;
    const token = new URL(link).pathname.split("/").pop()!;
    expect(await checkTokenLink(link, token, "password_reset")).toBe("valid");

    const tampered = link.replace(/expires=\d+/, "expires=9999999999");
    expect(await resetPassword({ token, url: tampered, password: "evil-password" })).toBe("invalid_signature");

    expect(await resetPassword({ token, url: link, password: "brand-new-password" })).toBe("valid");
    expect(await resetPassword({ token, url: link, password: "another-password" })).toBe("invalid_link");
    expect(await checkTokenLink(link, token, "password_reset")).toBe("invalid_link");

    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect(await attemptLogin({ email: user.email, password: TEST_PASSWORD, ip: "10.0.6.3" })).toMatchObject({ reason: "invalid" });
    expect(await attemptLogin({ email: user.email, password: "brand-new-password", ip: "10.0.6.3" })).toMatchObject({ ok: true });
  });

  it("stores only hashes of tokens, and a newer link replaces an older one", async () => {
    const user = await createUser();
    await requestPasswordReset(user.email, "10.0.6.4");
    const first = (await smtp.next(user.email)).links[0]!;
    await requestPasswordReset(user.email, "10.0.6.4");
    const second = (await smtp.next(user.email)).links[0]!;
    const firstToken = new URL(first).pathname.split("/").pop()!;
    const rows = await db().select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).not.toContain(firstToken);
    expect(await checkTokenLink(first, firstToken, "password_reset")).toBe("invalid_link");
    expect(await checkTokenLink(second, new URL(second).pathname.split("/").pop()!, "password_reset")).toBe("valid");
  });
});

describe("activation of accounts created for someone", () => {
  it("sets the first password, verifies the email and activates", async () => {
    const email = uniqueEmail("invited");
    const pending = await createPendingAccount({ name: "Ivy", lastName: "Invited", email, invitedBy: "Ada Admin" });
    expect(pending.passwordHash).toBeNull();
    expect(await attemptLogin({ email, password: "", ip: "10.0.7.1" })).toMatchObject({ reason: "invalid" });

    const mail = await smtp.next(email);
    expect(mail.text).toContain("Ada Admin created an account for you");
    const link = mail.links[0]!;
    const token = new URL(link).searchParams.get("token")!;
    expect(await activateAccount({ token, url: link, password: "my-first-password" })).toBe("valid");
    const [row] = await db().select().from(users).where(eq(users.id, pending.id));
    expect(row!.activatedAt).toBeInstanceOf(Date);
    expect(row!.emailVerifiedAt).toBeInstanceOf(Date);
    expect(await attemptLogin({ email, password: "my-first-password", ip: "10.0.7.1" })).toMatchObject({ ok: true });
    expect(await activateAccount({ token, url: link, password: "again-password" })).toBe("invalid_link");
  });
});
