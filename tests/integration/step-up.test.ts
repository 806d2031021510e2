import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { affiliates, oneTimeTokens, projects, rateLimits, sessions, twoFactors, users, type User } from "~/db/schema";
import { applyAsAffiliate } from "~/modules/affiliates/affiliates.server";
import { getSession, sessionStorage } from "~/modules/accounts/session.server";
import { CODE_CONFIRMATION_WINDOW_SECONDS, recordConfirmation } from "~/modules/accounts/step-up.server";
import { hasTwoFactor, startEnrolment } from "~/modules/accounts/two-factor.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { createSignedMember, createUser, TEST_PASSWORD, uniqueEmail } from "../helpers/factories";
import { openProject } from "../helpers/marketplace";
import { requestAs, sessionCookieFor } from "../helpers/requests";
import { useSmtpListener } from "../helpers/smtp";
import { enableTwoFactorFor } from "../helpers/two-factor";

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
    expect((await server.postForm(profileOf(member), { intent: "tfa-confirm", code: await generate({ secret, epoch: epoch() - 30 }) }, cookie)).status).toBe(
      200,
    );
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

/** An administrator with two-factor on, and its codes: each one a step the account has not used (each is accepted once). */
async function twoFactorAdmin() {
  let admin = await createSignedMember("Ada");
  [admin] = await db().update(users).set({ acctType: 2, roleId: 2 }).where(eq(users.id, admin.id)).returning();
  const { secret, recovery } = await enableTwoFactorFor(admin);
  let step = Math.floor(Date.now() / 30_000) - 1;
  async function code() {
    step = Math.max(step + 1, Math.floor(Date.now() / 30_000));
    // A code is accepted one step early at most: past that, wait for the clock.
    const wait = (step - 1) * 30_000 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + 50));
    return generate({ secret, epoch: step * 30 });
  }
  return { admin: admin!, recovery, code };
}

describe("administrators' money decisions need a current authenticator code", () => {
  async function unfundedProject() {
    const client = await createSignedMember("Client");
    const provider = await createSignedMember("Provider");
    return (await openProject(client, provider)).project;
  }
  const fundingOf = async (id: number) => (await db().select().from(projects).where(eq(projects.id, id)))[0]!.fundingStatus;

  it("escrow: a bare session, and one confirmed with the password, are asked for the code and nothing moves", async () => {
    const { admin } = await twoFactorAdmin();
    const project = await unfundedProject();
    const path = `/admin/project/${project.id}`;
    const fields = { intent: "fund", reference: "WIRE-0001" };
    for (const cookie of [await sessionCookieFor(admin.id), await sessionConfirmed(admin, 0)]) {
      const response = await server.postForm(path, fields, cookie);
      expect(response.status).toBe(403);
      const html = await response.text();
      expect(html).toContain("money decisions need a current code");
      expect(html).toContain('name="confirmCode"');
      expect(html).toContain('inputMode="numeric"');
    }
    expect(await fundingOf(project.id)).toBe("unfunded");
  });

  it("escrow: a code entered with the action funds it; a recovery code, a wrong or a used code do not", async () => {
    const { admin, recovery, code } = await twoFactorAdmin();
    const project = await unfundedProject();
    const path = `/admin/project/${project.id}`;
    const cookie = await sessionCookieFor(admin.id);
    const fields = { intent: "fund", reference: "WIRE-0002" };
    const used = await code();
    const other = await sessionCookieFor(admin.id);
    // The code is taken by another decision first (in another session): it is not accepted twice.
    expect((await server.postForm(`/admin/project/${(await unfundedProject()).id}`, { ...fields, confirmCode: used }, other)).status).toBe(302);
    for (const wrong of [recovery[1]!, "123456", used]) {
      const response = await server.postForm(path, { ...fields, confirmCode: wrong }, cookie);
      expect(response.status, wrong).toBe(403);
      expect(await response.text()).toContain("That code is not right.");
    }
    expect(await fundingOf(project.id)).toBe("unfunded");
    const funded = await server.postForm(path, { ...fields, confirmCode: await code() }, cookie);
    expect(funded.status).toBe(302);
    expect(await fundingOf(project.id)).toBe("funded");
  });

  it("a code confirmation counts for 5 minutes in its own session, then the code is asked again", async () => {
    const { admin, code } = await twoFactorAdmin();
    const cookie = await sessionCookieFor(admin.id);
    const first = await unfundedProject();
    expect((await server.postForm(`/admin/project/${first.id}`, { intent: "fund", reference: "WIRE-0003", confirmCode: await code() }, cookie)).status).toBe(
      302,
    );
    // Within the 5 minutes: no code needed.
    const second = await unfundedProject();
    expect((await server.postForm(`/admin/project/${second.id}`, { intent: "fund", reference: "WIRE-0004" }, cookie)).status).toBe(302);
    // Five minutes later (the confirmation moved back in the session), the code is asked again.
    const request = requestAs(cookie, "/");
    const session = await getSession(request);
    session.set("codeConfirmedAt", Date.now() - CODE_CONFIRMATION_WINDOW_SECONDS * 1000 - 1);
    await sessionStorage().commitSession(session);
    const third = await unfundedProject();
    expect((await server.postForm(`/admin/project/${third.id}`, { intent: "fund", reference: "WIRE-0005" }, cookie)).status).toBe(403);
    expect(await fundingOf(third.id)).toBe("unfunded");
  });

  it("approving an affiliate needs the code too", async () => {
    const { admin, code } = await twoFactorAdmin();
    const owner = await createUser({ email: uniqueEmail("affiliate") });
    const applied = await applyAsAffiliate(owner.id, { audience: "A music blog with 20,000 readers", payoutMethod: "manual" });
    const path = `/admin/affiliate/${applied.id}`;
    const cookie = await sessionCookieFor(admin.id);
    const asked = await server.postForm(path, { intent: "approve" }, cookie);
    expect(asked.status).toBe(403);
    expect(await asked.text()).toContain('name="confirmCode"');
    expect((await db().select().from(affiliates).where(eq(affiliates.id, applied.id)))[0]!.status).toBe("pending_approval");
    const approved = await server.postForm(path, { intent: "approve", confirmCode: await code() }, cookie);
    expect(approved.status).toBe(302);
    expect((await db().select().from(affiliates).where(eq(affiliates.id, applied.id)))[0]!.status).toBe("approved");
  });
});

describe("changing the login email", () => {
  const names = (user: User, email: string) => ({ intent: "names", name: user.name, lastName: user.lastName, email });
  /** A signed link from a mail, on the test server. */
  const onServer = (link: string) => link.replace("http://localhost:3999", server.url);
  const emailOf = async (id: number) => (await db().select({ email: users.email }).from(users).where(eq(users.id, id)))[0]!.email;

  it("needs the fresh confirmation; the names alone do not", async () => {
    const member = await createSignedMember("Names");
    const cookie = await sessionCookieFor(member.id);
    const asked = await server.postForm(profileOf(member), names(member, uniqueEmail("taker")), cookie);
    expect(asked.status).toBe(403);
    expect(await asked.text()).toContain('name="confirmPassword"');
    expect(await db().select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, member.id))).toEqual([]);
    await expect(mail.next(member.email, 300)).rejects.toThrow(/No mail/);

    const renamed = await server.postForm(profileOf(member), { ...names(member, member.email), name: "Renamed" }, cookie);
    expect(renamed.status).toBe(302);
  });

  it("sends the old address a link that, for 72 hours, undoes the change even once it is done, and ends every session", async () => {
    const member = await createSignedMember("Victim");
    const attacker = await sessionConfirmed(member, 0);
    const first = uniqueEmail("attacker-one");
    expect((await server.postForm(profileOf(member), names(member, first), attacker)).status).toBe(302);
    const toOld = await mail.next(member.email);
    expect(toOld.subject).toBe("A change of email address was requested for your Backline account");
    const cancelLink = toOld.links.find((link) => link.includes("/email-change-cancel/"))!;
    expect(cancelLink).toBeTruthy();
    const expires = Number(new URL(cancelLink).searchParams.get("expires"));
    expect(expires - Date.now() / 1000).toBeGreaterThan(72 * 3600 - 60);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(72 * 3600);

    // The attacker confirms the new address, then moves it once more (which must not take the first link away).
    const confirm = (await mail.next(first)).links[0]!;
    expect((await fetch(onServer(confirm), { redirect: "manual" })).status).toBe(302);
    expect(await emailOf(member.id)).toBe(first);
    const second = uniqueEmail("attacker-two");
    expect((await server.postForm(profileOf(member), names(member, second), attacker)).status).toBe(302);
    await mail.next(first);
    await mail.next(second);
    // A password reset link is on its way to the attacker's address.
    expect((await server.postForm("/forgot-password", { email: first }, "")).status).toBeLessThan(400);

    // Opening the link changes nothing (mail scanners open links).
    const page = await fetch(onServer(cancelLink), { redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("This was not me: cancel the change");
    expect(await emailOf(member.id)).toBe(first);
    // A tampered link is refused.
    expect((await fetch(onServer(cancelLink).replace(/signature=[0-9a-f]{4}/, "signature=0000"), { redirect: "manual" })).status).toBe(403);

    const cancelled = await fetch(onServer(cancelLink), {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.text()).toContain("Your account uses");
    expect(await emailOf(member.id)).toBe(member.email);
    // Every session is gone, the pending change and the reset link with them.
    expect((await server.getAs(profileOf(member), attacker)).status).toBe(302);
    expect(await db().select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    const left = await db().select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, member.id));
    expect(left.filter((t) => t.usedAt === null && (t.purpose === "email_change" || t.purpose === "password_reset"))).toEqual([]);
    // Used once.
    expect(
      (
        await fetch(onServer(cancelLink), {
          method: "POST",
          redirect: "manual",
          headers: { Origin: server.origin, "Content-Type": "application/x-www-form-urlencoded" },
          body: "",
        })
      ).status,
    ).toBe(410);
  });

  it("before the new address is confirmed, the link withdraws the change: its confirmation link stops working", async () => {
    const member = await createSignedMember("Early");
    const cookie = await sessionConfirmed(member, 0);
    const wanted = uniqueEmail("early");
    expect((await server.postForm(profileOf(member), names(member, wanted), cookie)).status).toBe(302);
    const cancelLink = (await mail.next(member.email)).links.find((link) => link.includes("/email-change-cancel/"))!;
    const confirm = (await mail.next(wanted)).links[0]!;
    const cancelled = await fetch(onServer(cancelLink), {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.text()).toContain("Your account keeps");
    expect((await fetch(onServer(confirm), { redirect: "manual" })).status).toBe(410);
    expect(await emailOf(member.id)).toBe(member.email);
  });
});

describe("the email change form does not tell which addresses have an account", () => {
  it("answers a taken address like a free one, mails its holder, and counts attempts before looking", async () => {
    const member = await createSignedMember("Prober");
    const holder = await createSignedMember("Holder");
    const cookie = await sessionConfirmed(member, 0);
    const answer = async (email: string) => {
      const response = await server.postForm(profileOf(member), { intent: "names", name: member.name, lastName: member.lastName, email }, cookie);
      const flash = response.headers.getSetCookie().find((c) => c.startsWith("backline_flash="));
      const page = await (await server.getAs(profileOf(member), `${cookie}; ${flash?.split(";")[0] ?? ""}`)).text();
      return {
        status: response.status,
        location: response.headers.get("location"),
        banner: /Email change pending\.[^<]*/.exec(page)?.[0],
        saved: page.includes(`We sent a confirmation link to ${email}`),
      };
    };
    const free = uniqueEmail("free");
    const freeAnswer = await answer(free);
    const takenAnswer = await answer(holder.email);
    expect(takenAnswer).toEqual({ ...freeAnswer, saved: true });
    expect(freeAnswer.saved).toBe(true);
    expect((await mail.next(holder.email)).subject).toBe("Someone tried to move another Backline account to your address");
    const pending = await db().select().from(oneTimeTokens).where(eq(oneTimeTokens.userId, member.id));
    expect(pending.some((t) => t.purpose === "email_change" && t.newEmail === holder.email && t.usedAt === null)).toBe(true);

    // Five attempts an hour, taken addresses counted like free ones: the sixth is refused whatever it asks.
    for (let i = 0; i < 3; i++) expect((await answer(i % 2 ? holder.email : uniqueEmail("probe"))).status).toBe(302);
    const refused = await server.postForm(profileOf(member), { intent: "names", name: member.name, lastName: member.lastName, email: holder.email }, cookie);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain("Too many email changes were asked for.");
  });
});

describe("nobody can lock an account out: a browser the account logged in from before is counted on its own", () => {
  let proxied: AppServer;
  beforeAll(async () => {
    // Behind a proxy, so each request can come from an address of its own (X-Forwarded-For).
    proxied = await startAppServer({ trustProxy: true });
  });
  afterAll(() => proxied?.close());

  const cookieFrom = (response: Response, name: string) =>
    response.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${name}=`))
      ?.split(";")[0];
  const send = (path: string, fields: Record<string, string>, ip: string, cookie = "") =>
    fetch(`${proxied.url}${path}`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: proxied.origin, "Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": ip, ...(cookie ? { Cookie: cookie } : {}) },
      body: new URLSearchParams(fields),
    });
  const login = (email: string, password: string, ip: string, cookie = "") => send("/login", { email, password, redirect: "" }, ip, cookie);
  /** Five wrong tries from each of ten addresses: 50, the account's window. */
  async function fromTenAddresses(attempt: (ip: string) => Promise<Response>) {
    for (let a = 1; a <= 10; a++) for (let i = 0; i < 5; i++) expect([400, 403, 429]).toContain((await attempt(`10.9.${a}.1`)).status);
  }

  it("the password step: ten addresses fill the window; the owner, on a known device, still logs in", async () => {
    const owner = await createSignedMember("Locked");
    const first = await login(owner.email, TEST_PASSWORD, "10.0.0.1");
    expect(first.status).toBe(302);
    const device = cookieFrom(first, "backline_device")!;
    expect(device).toBeTruthy();

    await fromTenAddresses((ip) => login(owner.email, "wrong password", ip));
    // The window is full: a right password from a browser the account never used is refused ...
    const stranger = await login(owner.email, TEST_PASSWORD, "10.0.0.3");
    expect(stranger.status).toBe(429);
    expect(await stranger.text()).toContain("Too many login attempts.");
    // ... and so is a device cookie that is not ours (forged, or for another account).
    expect(
      (
        await login(
          owner.email,
          TEST_PASSWORD,
          "10.0.0.3",
          device.replace(/.$/, (c) => (c === "A" ? "B" : "A")),
        )
      ).status,
    ).toBe(429);
    const someoneElse = await createSignedMember("Else");
    const elseDevice = cookieFrom(await login(someoneElse.email, TEST_PASSWORD, "10.0.0.4"), "backline_device")!;
    expect((await login(owner.email, TEST_PASSWORD, "10.0.0.4", elseDevice)).status).toBe(429);
    // The owner's browser, from any address, is not.
    const known = await login(owner.email, TEST_PASSWORD, "10.0.0.2", device);
    expect(known.status).toBe(302);
    expect(known.headers.get("location")).toBe(`/member/${owner.id}/dashboard`);

    // That browser has a window of its own: five wrong passwords from it, and it waits too.
    for (let i = 0; i < 5; i++) expect((await login(owner.email, "typo", "10.0.0.2", device)).status).toBe(400);
    expect((await login(owner.email, TEST_PASSWORD, "10.0.0.2", device)).status).toBe(429);
  });

  it("the second step: wrong codes from ten addresses do not refuse the owner's right code on a known device", async () => {
    const owner = await createSignedMember("Coded");
    const first = await login(owner.email, TEST_PASSWORD, "10.1.0.1");
    const device = cookieFrom(first, "backline_device")!;
    const { secret } = await enableTwoFactorFor(owner);
    // Someone who has the password reaches the second step and guesses codes from ten addresses.
    const pending = cookieFrom(await login(owner.email, TEST_PASSWORD, "10.1.0.9"), "backline_login_2fa")!;
    await fromTenAddresses((ip) => send("/login", { intent: "code", code: "000000" }, ip, pending));
    expect((await send("/login", { intent: "code", code: await generate({ secret, epoch: epoch() }) }, "10.1.0.9", pending)).status).toBe(429);

    const mine = cookieFrom(await login(owner.email, TEST_PASSWORD, "10.1.0.2", device), "backline_login_2fa")!;
    const loggedIn = await send("/login", { intent: "code", code: await generate({ secret, epoch: epoch() }) }, "10.1.0.2", `${device}; ${mine}`);
    expect(loggedIn.status).toBe(302);
    expect(cookieFrom(loggedIn, "backline_session")).toBeTruthy();
  });

  it("the fresh confirmation: wrong passwords from ten addresses do not refuse the owner's right one on a known device", async () => {
    const owner = await createSignedMember("Confirmer");
    const device = cookieFrom(await login(owner.email, TEST_PASSWORD, "10.2.0.1"), "backline_device")!;
    const stolen = await sessionCookieFor(owner.id);
    const change = { intent: "tax", form: "w9", legalName: "Confirmer Tester", country: "US", tin: "123-45-6789" };
    const provider = `/member/${owner.id}/payouts-provider`;
    await fromTenAddresses((ip) => send(provider, { ...change, confirmPassword: "guess" }, ip, stolen));
    const refused = await send(provider, { ...change, confirmPassword: TEST_PASSWORD }, "10.2.0.9", stolen);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain("Too many attempts.");

    const mine = await sessionCookieFor(owner.id);
    expect((await send(provider, { ...change, confirmPassword: TEST_PASSWORD }, "10.2.0.2", `${device}; ${mine}`)).status).toBe(302);
  });
});
