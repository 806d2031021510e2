import { eq } from "drizzle-orm";
import { generate } from "otplib";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { payoutDetailChanges, sessions, twoFactorRecoveryCodes, twoFactors } from "~/db/schema";
import { createUser, TEST_PASSWORD } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { useSmtpListener } from "../../../tests/helpers/smtp";
import { recordPayoutDetailChange, reportPayoutDetailChange } from "~/modules/payouts/payout-changes.server";
import { getSession, sessionStorage, startUserSession } from "./session.server";
import { attemptSecondFactor, CONFIRMATION_WINDOW_SECONDS, confirmIdentity, isFresh, recordConfirmation, requireFreshConfirmation } from "./step-up.server";
import {
  confirmEnrolment,
  disableTwoFactor,
  hasTwoFactor,
  pendingEnrolment,
  regenerateRecoveryCodes,
  startEnrolment,
  twoFactorState,
  TwoFactorError,
  verifySecondFactor,
} from "./two-factor.server";

useTestDatabase();
const smtp = useSmtpListener({ LOGIN_LIMIT_PER_ACCOUNT: "3", LOGIN_LIMIT_PER_ACCOUNT_GLOBAL: "6", LOGIN_LIMIT_PER_IP: "50" });

const seconds = () => Math.floor(Date.now() / 1000);
const codeAt = (secret: string, epoch: number) => generate({ secret, epoch });

async function enrolled() {
  const user = await createUser();
  await startEnrolment(user.id);
  const enrolment = (await pendingEnrolment(user))!;
  const now = seconds();
  const recovery = await confirmEnrolment(user.id, await codeAt(enrolment.secret, now - 60), { now: now - 60 });
  return { user, secret: enrolment.secret, recovery };
}

describe("TOTP enrolment", () => {
  it("issues a sealed secret, shown as text, otpauth URI and QR code, and turns on only with a right code", async () => {
    const user = await createUser();
    expect(await twoFactorState(user.id)).toEqual({ enabled: false, enrolling: false, recoveryCodesLeft: 0 });
    await startEnrolment(user.id);
    const enrolment = (await pendingEnrolment(user))!;
    expect(enrolment.secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(enrolment.uri).toContain(`secret=${enrolment.secret}`);
    expect(enrolment.uri).toMatch(/^otpauth:\/\/totp\//);
    expect(enrolment.qrSvg).toContain("<svg");
    const [row] = await db().select().from(twoFactors).where(eq(twoFactors.userId, user.id));
    expect(row!.secretEncrypted).toMatch(/^v1:/);
    expect(row!.secretEncrypted).not.toContain(enrolment.secret);
    expect(await twoFactorState(user.id)).toMatchObject({ enabled: false, enrolling: true });

    await expect(confirmEnrolment(user.id, "000000")).rejects.toBeInstanceOf(TwoFactorError);
    expect(await hasTwoFactor(user.id)).toBe(false);
    const codes = await confirmEnrolment(user.id, await codeAt(enrolment.secret, seconds()));
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect(await twoFactorState(user.id)).toEqual({ enabled: true, enrolling: false, recoveryCodesLeft: 10 });
    expect(await pendingEnrolment(user)).toBeNull();
    // Stored hashed only.
    const stored = await db().select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, user.id));
    expect(stored.map((r) => r.codeHash).join()).not.toContain(codes[0]!.replace("-", ""));
    // A second enrolment is refused while it is on.
    await expect(startEnrolment(user.id)).rejects.toBeInstanceOf(TwoFactorError);
  });

  it("replaces an unconfirmed secret when setup starts again", async () => {
    const user = await createUser();
    await startEnrolment(user.id);
    const first = (await pendingEnrolment(user))!.secret;
    await startEnrolment(user.id);
    const second = (await pendingEnrolment(user))!.secret;
    expect(second).not.toBe(first);
    await expect(confirmEnrolment(user.id, await codeAt(first, seconds()))).rejects.toBeInstanceOf(TwoFactorError);
  });
});

describe("TOTP verification", () => {
  it("accepts the current step and one step of drift, refuses two steps away, and takes each step once", async () => {
    const { user, secret } = await enrolled();
    const now = seconds();
    expect(await verifySecondFactor(user.id, await codeAt(secret, now - 30 * 3), { now })).toBeNull(); // 90 s old
    expect(await verifySecondFactor(user.id, await codeAt(secret, now + 30 * 3), { now })).toBeNull(); // 90 s ahead
    const previous = await codeAt(secret, now - 30);
    expect(await verifySecondFactor(user.id, previous, { now })).toBe("totp");
    expect(await verifySecondFactor(user.id, previous, { now })).toBeNull(); // the same code again
    const current = await codeAt(secret, now);
    if (current !== previous) {
      expect(await verifySecondFactor(user.id, ` ${current.slice(0, 3)} ${current.slice(3)} `, { now })).toBe("totp"); // spaces allowed
      expect(await verifySecondFactor(user.id, current, { now })).toBeNull();
    }
    expect(await verifySecondFactor(user.id, "12345", { now })).toBeNull();
    expect(await verifySecondFactor(user.id, "", { now })).toBeNull();
  });

  it("gives two simultaneous uses of one code one success", async () => {
    const { user, secret } = await enrolled();
    const code = await codeAt(secret, seconds());
    const results = await Promise.all([verifySecondFactor(user.id, code), verifySecondFactor(user.id, code)]);
    expect(results.filter((r) => r === "totp")).toHaveLength(1);
  });

  it("does not accept codes for a user without two-factor, or before the enrolment is confirmed", async () => {
    const user = await createUser();
    await startEnrolment(user.id);
    const secret = (await pendingEnrolment(user))!.secret;
    expect(await verifySecondFactor(user.id, await codeAt(secret, seconds()))).toBeNull();
  });
});

describe("recovery codes", () => {
  it("each works once, in any case and with or without the dash; new ones retire the old", async () => {
    const { user, recovery } = await enrolled();
    expect(await verifySecondFactor(user.id, recovery[0]!.toUpperCase())).toBe("recovery");
    expect(await verifySecondFactor(user.id, recovery[0]!)).toBeNull();
    expect(await verifySecondFactor(user.id, recovery[1]!.replace("-", ""))).toBe("recovery");
    expect((await twoFactorState(user.id)).recoveryCodesLeft).toBe(8);
    expect(await verifySecondFactor(user.id, "aaaaa-bbbbb")).toBeNull();

    const fresh = await regenerateRecoveryCodes(user.id);
    expect(await verifySecondFactor(user.id, recovery[2]!)).toBeNull();
    expect((await twoFactorState(user.id)).recoveryCodesLeft).toBe(10);
    expect(await verifySecondFactor(user.id, fresh[0]!)).toBe("recovery");

    await disableTwoFactor(user.id);
    expect(await hasTwoFactor(user.id)).toBe(false);
    expect(await verifySecondFactor(user.id, fresh[1]!)).toBeNull();
    await expect(regenerateRecoveryCodes(user.id)).rejects.toBeInstanceOf(TwoFactorError);
  });

  it("counts wrong codes at the login's second step like wrong passwords", async () => {
    const { user, recovery } = await enrolled();
    const ip = `10.2.${user.id % 250}.1`;
    for (let i = 0; i < 3; i += 1) expect(await attemptSecondFactor({ userId: user.id, code: "000000", ip })).toMatchObject({ ok: false, status: 400 });
    // Limited now (LOGIN_LIMIT_PER_ACCOUNT = 3): even a right code is refused, and not used up.
    expect(await attemptSecondFactor({ userId: user.id, code: recovery[0]!, ip })).toMatchObject({ ok: false, status: 429 });
    expect(await attemptSecondFactor({ userId: user.id, code: recovery[0]!, ip: `${ip}0` })).toEqual({ ok: true });
  });
});

describe("fresh confirmation", () => {
  const cookieOf = async (userId: number) => {
    const response = await startUserSession(new Request("http://localhost:3999/login"), { userId, ip: "127.0.0.1", redirectTo: "/" });
    return response.headers.get("Set-Cookie")!.split(";")[0]!;
  };
  const post = (cookie: string, fields: Record<string, string>) => {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.set(k, v);
    return { request: new Request("http://localhost:3999/member/1/payouts-provider", { method: "POST", headers: { Cookie: cookie } }), body };
  };

  it("is fresh for 10 minutes after a confirmation", () => {
    const now = Date.now();
    expect(isFresh(undefined, now)).toBe(false);
    expect(isFresh(now - 1000, now)).toBe(true);
    expect(isFresh(now - CONFIRMATION_WINDOW_SECONDS * 1000 + 1, now)).toBe(true);
    expect(isFresh(now - CONFIRMATION_WINDOW_SECONDS * 1000, now)).toBe(false);
    expect(isFresh(now + 60_000, now)).toBe(false);
  });

  it("throws the confirm form with the submitted fields (never the password), then lets the request through once the password is right", async () => {
    const user = await createUser();
    const cookie = await cookieOf(user.id);
    const { request, body } = post(cookie, { intent: "bank", accountNumber: "12345678" });
    const refused = await requireFreshConfirmation(request, user, body, "127.0.0.1").then(
      () => null,
      (thrown: unknown) => thrown as { init: { status: number }; data: { confirm: { fields: string[][]; twoFactor: boolean; error: string | null } } },
    );
    expect(refused!.init.status).toBe(403);
    expect(refused!.data.confirm).toEqual({
      fields: [
        ["intent", "bank"],
        ["accountNumber", "12345678"],
      ],
      twoFactor: false,
      purpose: "account",
      error: null,
    });

    body.set("confirmPassword", "wrong password");
    const wrong = await requireFreshConfirmation(request, user, body, "127.0.0.1").catch(
      (thrown: { data: { confirm: { fields: string[][]; error: string } } }) => thrown.data.confirm,
    );
    expect(wrong!.error).toBe("That password is not right.");
    expect(JSON.stringify(wrong!.fields)).not.toContain("wrong password");

    body.set("confirmPassword", TEST_PASSWORD);
    await expect(requireFreshConfirmation(request, user, body, "127.0.0.1")).resolves.toBeUndefined();
    // Recorded in the session: the next request passes without a password.
    expect(isFresh((await getSession(request)).get("confirmedAt"))).toBe(true);
    await expect(requireFreshConfirmation(request, user, new FormData(), "127.0.0.1")).resolves.toBeUndefined();

    // Ten minutes later it is asked again.
    const session = await getSession(request);
    session.set("confirmedAt", Date.now() - CONFIRMATION_WINDOW_SECONDS * 1000 - 1);
    await sessionStorage().commitSession(session);
    await expect(requireFreshConfirmation(request, user, new FormData(), "127.0.0.1")).rejects.toMatchObject({ init: { status: 403 } });
    // Another session of the same user is not confirmed by this one.
    const other = post(await cookieOf(user.id), {});
    await expect(requireFreshConfirmation(other.request, user, other.body, "127.0.0.1")).rejects.toMatchObject({ init: { status: 403 } });
  });

  it("asks for the authenticator code, not the password, when two-factor is on", async () => {
    const { user, secret } = await enrolled();
    expect(await confirmIdentity(user, { password: TEST_PASSWORD, ip: "127.0.0.2" })).toMatchObject({ ok: false });
    const { request, body } = post(await cookieOf(user.id), { intent: "request", amount: "10.00" });
    await expect(requireFreshConfirmation(request, user, body, "127.0.0.2")).rejects.toMatchObject({ data: { confirm: { twoFactor: true } } });
    body.set("confirmCode", await codeAt(secret, seconds()));
    await expect(requireFreshConfirmation(request, user, body, "127.0.0.2")).resolves.toBeUndefined();
  });

  it("records a confirmation only in a real session", async () => {
    const before = (await db().select().from(sessions)).length;
    await recordConfirmation(new Request("http://localhost:3999/"));
    expect((await db().select().from(sessions)).length).toBe(before);
  });
});

describe("payout detail changes", () => {
  it("emails the member a signed report link; a report is recorded once, signs every session out", async () => {
    const user = await createUser();
    await startUserSession(new Request("http://localhost:3999/login"), { userId: user.id, ip: "127.0.0.1", redirectTo: "/" });
    const { id, reportUrl } = await recordPayoutDetailChange(user, {
      kind: "bank_details",
      summary: "Bank transfer to the account ending 6789 (US)",
      ip: "127.0.0.9",
    });
    const mail = await smtp.next(user.email);
    expect(mail.subject).toBe("Your Backline bank details changed");
    expect(mail.text).toContain("ending 6789");
    expect(mail.text).toContain(reportUrl);

    expect(await reportPayoutDetailChange(id, reportUrl.replace(/signature=[0-9a-f]{4}/, "signature=0000"))).toBeNull();
    expect(await reportPayoutDetailChange(id + 1, reportUrl)).toBeNull();
    expect(await reportPayoutDetailChange(id, reportUrl)).toEqual({ firstReport: true });
    expect(await reportPayoutDetailChange(id, reportUrl)).toEqual({ firstReport: false });
    const [row] = await db().select().from(payoutDetailChanges).where(eq(payoutDetailChanges.id, id));
    expect(row!.reportedAt).not.toBeNull();
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });
});
