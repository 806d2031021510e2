import { actionLink, mailsTo, waitForMail } from "../support/outbox";
import { expiredLink, extendedExpiry, pathOf, resignedLink, tamperedSignature } from "../support/signed-links";
import { expect, registerUser, test } from "../support/test";

const VERIFIED = "Your email address is verified. You can log in now.";
const UNVERIFIED = "Please verify your email address first.";
const USED = "This verification link has already been used or has been replaced by a newer one.";

test("the emailed link verifies the address once; the user can then log in", async ({ page, app, request, browserErrors }) => {
  browserErrors.allowStatus(404, 410);
  const user = await registerUser(request, "verify");
  const link = actionLink(await waitForMail(user.email, { subject: /Verify your email/ }));

  await page.goto(pathOf(link));
  await expect(page).toHaveURL("/login");
  await expect(page.getByRole("status")).toHaveText(VERIFIED);

  await app.logIn(user.email, user.password);
  await expect(page).toHaveURL(/\/member\/\d+\/dashboard$/);

  // Used up: the same link now answers 410 and changes nothing.
  const again = await page.goto(pathOf(link));
  expect(again?.status()).toBe(410);
  await expect(page).toHaveTitle("Verify email | Backline");
  await expect(page.getByRole("alert")).toHaveText(USED);
});

test("tampered, expired and re-targeted links answer 'Invalid signature.' and verify nothing", async ({ page, app, request, browserErrors }) => {
  browserErrors.allowStatus(400, 403, 410);
  const user = await registerUser(request, "verify-bad");
  const link = actionLink(await waitForMail(user.email, { subject: /Verify your email/ }));
  const userId = new URL(link).pathname.split("/")[2]!;
  const token = new URL(link).pathname.split("/")[3]!;

  const bad: Array<[string, string]> = [
    ["tampered signature", tamperedSignature(link)],
    ["expiry moved later", extendedExpiry(link)],
    ["correctly signed but expired", expiredLink(link)],
    ["other user id", link.replace(`/email-verify/${userId}/`, `/email-verify/${Number(userId) - 1}/`)],
    ["no signature", link.split("?")[0]!],
    ["non-numeric id", link.replace(`/email-verify/${userId}/`, "/email-verify/abc/")],
  ];
  for (const [label, badLink] of bad) {
    const response = await page.goto(pathOf(badLink));
    expect(response?.status(), label).toBe(403);
    await expect(page.getByRole("alert"), label).toHaveText("Invalid signature.");
    await expect(page).not.toHaveURL(/\/login/);
  }

  // A valid signature over a token that does not exist (or belongs to someone else) is a dead link, not a verification.
  const wrongToken = resignedLink(link, (url) => {
    url.pathname = `/email-verify/${userId}/${"x".repeat(token.length)}`;
  });
  const dead = await page.goto(pathOf(wrongToken));
  expect(dead?.status()).toBe(410);
  await expect(page.getByRole("alert")).toHaveText(USED);

  // Still unverified: logging in is refused (and sends a fresh link).
  const mails = mailsTo(user.email).length;
  await app.logIn(user.email, user.password);
  await expect(page.getByRole("alert")).toContainText(UNVERIFIED);
  const fresh = actionLink(await waitForMail(user.email, { after: mails }));

  // The fresh link replaces the first one, which now answers 410.
  const replaced = await page.goto(pathOf(link));
  expect(replaced?.status()).toBe(410);

  await page.goto(pathOf(fresh));
  await expect(page.getByRole("status")).toHaveText(VERIFIED);
});
