import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { rateLimits, twoFactors, type User } from "~/db/schema";
import { getSession } from "~/modules/accounts/session.server";
import { recordConfirmation } from "~/modules/accounts/step-up.server";
import { hasTwoFactor, startEnrolment } from "~/modules/accounts/two-factor.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { createSignedMember, TEST_PASSWORD } from "../helpers/factories";
import { requestAs, sessionCookieFor } from "../helpers/requests";
import { useSmtpListener } from "../helpers/smtp";

/**
 * Step-up security through the real handler (decision 020). A stolen session cookie, with no password typed since
 * login, could turn two-factor on by itself (start, read the key from the page, confirm with a code), and the
 * confirmation counted as the fresh confirmation: it then changed the bank details and requested the whole balance,
 * and the owner was locked out by an authenticator only the attacker had, told nothing.
 */

useTestDatabase();
const mail = useSmtpListener();

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});

afterAll(() => server?.close());

beforeEach(async () => {
  await db().delete(rateLimits);
});

const epoch = () => Math.floor(Date.now() / 1000);
const profileOf = (user: User) => `/member/${user.id}/profile`;

/** The session's confirmation times, read as the guard reads them. */
async function confirmations(cookie: string) {
  const session = await getSession(requestAs(cookie, "/"));
  return { confirmedAt: session.get("confirmedAt"), codeConfirmedAt: session.get("codeConfirmedAt") };
}

/** A session whose user confirmed with the password `minutesAgo` minutes ago. */
async function sessionConfirmed(user: User, minutesAgo: number) {
  const cookie = await sessionCookieFor(user.id);
  await recordConfirmation(requestAs(cookie, "/"), Date.now() - minutesAgo * 60_000);
  return cookie;
}

async function secretShown(user: User, cookie: string): Promise<string> {
  const html = await (await server.getAs(profileOf(user), cookie)).text();
  const secret = /data-testid="totp-secret"[^>]*>([A-Z2-7]+)</.exec(html)?.[1];
  expect(secret, "the key on the Account page").toBeTruthy();
  return secret!;
}

describe("turning two-factor on", () => {
  it("needs the fresh confirmation to start: a bare session gets the confirm form and nothing is set up", async () => {
    const member = await createSignedMember("Bare");
    const cookie = await sessionCookieFor(member.id);
    const response = await server.postForm(profileOf(member), { intent: "tfa-start" }, cookie);
    expect(response.status).toBe(403);
    const html = await response.text();
    expect(html).toContain("Confirm it is you");
    expect(html).toContain('name="confirmPassword"');
    expect(html).toContain('value="tfa-start"');
    expect(await db().select().from(twoFactors).where(eq(twoFactors.userId, member.id))).toEqual([]);

    // A wrong password changes nothing either.
    const wrong = await server.postForm(profileOf(member), { intent: "tfa-start", confirmPassword: "not it" }, cookie);
    expect(wrong.status).toBe(403);
    expect(await wrong.text()).toContain("That password is not right.");
    expect(await db().select().from(twoFactors).where(eq(twoFactors.userId, member.id))).toEqual([]);

    // The confirm form posts the same fields with the password: the setup starts.
    const confirmed = await server.postForm(profileOf(member), { intent: "tfa-start", confirmPassword: TEST_PASSWORD }, cookie);
    expect(confirmed.status).toBe(302);
    expect(await db().select().from(twoFactors).where(eq(twoFactors.userId, member.id))).toHaveLength(1);
  });

  it("needs it to confirm too: a bare session cannot finish a setup with a right code", async () => {
    const member = await createSignedMember("Half");
    await startEnrolment(member.id);
    const cookie = await sessionCookieFor(member.id);
    const secret = await secretShown(member, cookie);
    const response = await server.postForm(profileOf(member), { intent: "tfa-confirm", code: await generate({ secret, epoch: epoch() }) }, cookie);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("Confirm it is you");
    expect(await hasTwoFactor(member.id)).toBe(false);
  });

  it("is never itself a confirmation, and the account is told by email; another session still has to confirm with the code", async () => {
    const member = await createSignedMember("Owner");
    // Confirmed nine minutes ago: still fresh for one more minute.
    const cookie = await sessionConfirmed(member, 9);
    const before = await confirmations(cookie);
    expect((await server.postForm(profileOf(member), { intent: "tfa-start" }, cookie)).status).toBe(302);
    const secret = await secretShown(member, cookie);
    const turnedOn = await server.postForm(profileOf(member), { intent: "tfa-confirm", code: await generate({ secret, epoch: epoch() }) }, cookie);
    expect(turnedOn.status).toBe(200);
    expect(await turnedOn.text()).toContain('data-testid="recovery-codes"');
    expect(await hasTwoFactor(member.id)).toBe(true);
    // Neither confirmation time moved: the code proved the new app, not who is typing.
    expect(await confirmations(cookie)).toEqual(before);

    const notice = await mail.next(member.email);
    expect(notice.subject).toBe("Two-factor authentication is on for your Backline account");
    expect(notice.text).toContain("If this was not you");
    expect(notice.links).toContain(`http://localhost:3999/member/${member.id}/profile#two-factor`);

    // Another session (a stolen cookie) changing the bank details is asked for the code, not let through.
    const other = await sessionCookieFor(member.id);
    const bank = await server.postForm(
      `/member/${member.id}/payouts-provider`,
      { intent: "bank", country: "US", accountHolder: "Someone Else", bankName: "Elsewhere", accountNumber: "000999999999", routingCode: "021000021" },
      other,
    );
    expect(bank.status).toBe(403);
    const html = await bank.text();
    expect(html).toContain('name="confirmCode"');
    expect(html).not.toContain('name="confirmPassword"');
  });

  it("emails the account when recovery codes are made again and when two-factor is turned off", async () => {
    const member = await createSignedMember("Codes");
    const cookie = await sessionConfirmed(member, 0);
    expect((await server.postForm(profileOf(member), { intent: "tfa-start" }, cookie)).status).toBe(302);
    const secret = await secretShown(member, cookie);
    expect((await server.postForm(profileOf(member), { intent: "tfa-confirm", code: await generate({ secret, epoch: epoch() - 30 }) }, cookie)).status).toBe(200);
    await mail.next(member.email);

    const again = await server.postForm(profileOf(member), { intent: "tfa-recovery" }, cookie);
    expect(again.status).toBe(200);
    expect((await mail.next(member.email)).subject).toBe("New recovery codes for your Backline account");

    const off = await server.postForm(profileOf(member), { intent: "tfa-disable", code: TEST_PASSWORD }, cookie);
    expect(off.status).toBe(302);
    expect(await hasTwoFactor(member.id)).toBe(false);
    expect((await mail.next(member.email)).subject).toBe("Two-factor authentication is off for your Backline account");
  });
});

