import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { READY, READY_PASSWORD, readyName } from "../support/account-admin-accounts";
import { flash, logInMember, replyTo } from "../support/account-admin-helpers";
import { DEMO, DEMO_IDS, DEMO_PASSWORD } from "../support/accounts";
import { expectNoMail, mailsTo, waitForMail } from "../support/outbox";
import { expect, test } from "../support/test";

/**
 * Contact us, /member/{id}/contact-us (app/routes/member.$memberId.contact-us.tsx, contact.server.ts):
 * the message is mailed to every administrator, Reply-To the member who is signed in.
 */

const contactPath = (id: number) => `/member/${id}/contact-us`;
const loginFor = (target: string) => `/login?${new URLSearchParams({ redirect: target })}`;
const subjectField = (page: Page) => page.getByLabel("Subject");
const messageField = (page: Page) => page.getByRole("textbox", { name: "Message" });
const send = (page: Page) => page.getByRole("button", { name: "Send message" });

/** A subject no other test uses, so the admin's outbox can be searched for exactly this message. */
const uniqueSubject = (label: string) => `${label} ${crypto.randomBytes(4).toString("hex")}`;
const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

async function expectMailToAdmin(subject: string, from: { id: number; fullname: string; email: string }, message: string) {
  const mail = await waitForMail(DEMO.admin, { subject: new RegExp(`^Contact us: ${escape(subject)}$`) });
  expect(replyTo(mail)).toBe(`"${from.fullname}" <${from.email}>`);
  expect(mail.text).toContain(`${from.fullname} <${from.email}> wrote through Contact us:`);
  expect(mail.text).toContain(`Subject: ${subject}`);
  expect(mail.text).toContain(message);
  expect(mail.text).toContain(`Member: ${process.env.E2E_BASE_URL}/admin/member/${from.id}`);
  expect(mail.html).toContain(`<strong>${from.fullname}</strong>`);
  // Exactly one copy reached this administrator.
  expect(mailsTo(DEMO.admin, new RegExp(`^Contact us: ${escape(subject)}$`))).toHaveLength(1);
}

test.describe("guard", () => {
  test("without a session the page and its form go to /login?redirect=", async ({ page, request }) => {
    await page.goto(contactPath(DEMO_IDS.member));
    await expect(page).toHaveURL(loginFor(contactPath(DEMO_IDS.member)));

    const subject = uniqueSubject("Anonymous");
    const post = await request.post(contactPath(DEMO_IDS.member), { form: { subject, message: "Hello" }, maxRedirects: 0 });
    expect(post.status()).toBe(302);
    expect(post.headers()["location"]).toBe(loginFor(contactPath(DEMO_IDS.member)));
    await expectNoMail(DEMO.admin, new RegExp(escape(subject)));
  });

  test("a member opening another member's Contact us gets 404, and its form sends nothing", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(404);
    await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
    const response = await page.goto(contactPath(DEMO_IDS.admin));
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1, name: "Not Found" })).toBeVisible();
    await expect(subjectField(page)).toHaveCount(0);

    const subject = uniqueSubject("Through someone else's area");
    const post = await page.request.post(contactPath(DEMO_IDS.admin), { form: { subject, message: "Hello" }, maxRedirects: 0 });
    expect(post.status()).toBe(404);
    await expectNoMail(DEMO.admin, new RegExp(escape(subject)));
  });
});

test("empty fields are flagged beside them; a message is confirmed and mailed to the administrators", async ({ page, app }) => {
  const user = READY.contact;
  const id = await logInMember(app, user, READY_PASSWORD);
  expect((await app.goto(contactPath(id)))?.status()).toBe(200);
  await expect(page).toHaveTitle(`${readyName("contact").fullname} | Contact Us | Backline`);
  await expect(page.getByRole("heading", { level: 1, name: "Contact Us" })).toBeVisible();
  await expect(page.getByRole("main")).toContainText(`We answer by email at ${user}.`);

  await send(page).click();
  await expect(subjectField(page)).toHaveAttribute("aria-invalid", "true");
  await expect(subjectField(page)).toHaveAccessibleDescription("Enter a subject.");
  await expect(messageField(page)).toHaveAttribute("aria-invalid", "true");
  await expect(messageField(page)).toHaveAccessibleDescription(/^Write your message\.\s*Up to 5,000 characters\.$/);

  const subject = uniqueSubject("Royalty statement question");
  const message = "Hello team,\nmy March statement is missing.\n\nThanks!";
  await subjectField(page).fill(subject);
  await messageField(page).fill(message);
  await expect(subjectField(page)).not.toHaveAttribute("aria-invalid");
  await send(page).click();

  await expect(flash(page)).toHaveText(`Thank you, your message was sent. We will answer at ${user}.`);
  // A sent message comes back with a ?done= marker, and the form starts empty again.
  await expect(page).toHaveURL(new RegExp(`${contactPath(id)}\\?done=\\d+$`));
  await expect(subjectField(page)).toHaveValue("");
  await expectMailToAdmin(subject, { id, fullname: readyName("contact").fullname, email: user }, message);
});

test("a subject and a message of only spaces count as empty", async ({ page, app, browserErrors }) => {
  // Conform turns a trimmed "" into "missing": the schema's inner strings carry the same messages.
  browserErrors.allowStatus(400);
  await app.logInQuickly(DEMO.member, DEMO_PASSWORD);
  await app.goto(contactPath(DEMO_IDS.member));
  await subjectField(page).fill("   ");
  await messageField(page).fill("  \n  ");
  await send(page).click();
  await expect(subjectField(page)).toHaveAttribute("aria-invalid", "true");
  await expect(messageField(page)).toHaveAttribute("aria-invalid", "true");
  const shown = [await subjectField(page).getAttribute("aria-describedby"), await messageField(page).getAttribute("aria-describedby")];
  expect(shown).toEqual(["contact-us-subject-error", "contact-us-message-error contact-us-message-help"]);
  // The server answers the same (a browser without JavaScript).
  const post = await page.request.post(contactPath(DEMO_IDS.member), { form: { subject: "   ", message: "  \n  " }, maxRedirects: 0 });
  expect(post.status()).toBe(400);
  const html = await post.text();
  expect(html).not.toContain("Invalid input");
  expect(html).toContain("Enter a subject.");
  expect(html).toContain("Write your message.");
  await expect(subjectField(page)).toHaveAccessibleDescription("Enter a subject.", { timeout: 1_000 });
  await expect(messageField(page)).toHaveAccessibleDescription(/^Write your message\./, { timeout: 1_000 });
});

test("an administrator writing from a member's area writes as themselves", async ({ page, app }) => {
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  await app.goto(contactPath(DEMO_IDS.member));
  await expect(page.getByRole("main")).toContainText(`We answer by email at ${DEMO.admin}.`);
  const subject = uniqueSubject("Admin note");
  await subjectField(page).fill(subject);
  await messageField(page).fill("Written from Mia's area.");
  await send(page).click();
  await expect(flash(page)).toHaveText(`Thank you, your message was sent. We will answer at ${DEMO.admin}.`);
  await expectMailToAdmin(subject, { id: DEMO_IDS.admin, fullname: "Ada Admin", email: DEMO.admin }, "Written from Mia's area.");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the server flags empty fields, keeps what was typed, then sends", async ({ page, app, browserErrors }) => {
    browserErrors.allowStatus(400);
    const user = READY.contactNoJs;
    const id = await logInMember(app, user, READY_PASSWORD);
    await app.goto(contactPath(id));

    await send(page).click();
    await expect(page).toHaveURL(contactPath(id));
    await expect(subjectField(page)).toHaveAccessibleDescription("Enter a subject.");
    await expect(messageField(page)).toHaveAccessibleDescription(/^Write your message\.\s*Up to 5,000 characters\.$/);

    const subject = uniqueSubject("Sent without JavaScript");
    await messageField(page).fill("Typed before the subject.");
    await send(page).click();
    await expect(subjectField(page)).toHaveAccessibleDescription("Enter a subject.");
    await expect(messageField(page)).toHaveValue("Typed before the subject.");
    await expect(messageField(page)).not.toHaveAttribute("aria-invalid");

    await subjectField(page).fill(subject);
    await send(page).click();
    await expect(flash(page)).toHaveText(`Thank you, your message was sent. We will answer at ${user}.`);
    await expectMailToAdmin(subject, { id, fullname: readyName("contactNoJs").fullname, email: user }, "Typed before the subject.");
  });
});
