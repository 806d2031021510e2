import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { expect, test } from "../support/test";
import { LEGAL_ADMIN_PASSWORD, LEGAL_MEMBERS } from "./accounts";

/**
 * Every page of the legal administration (app/routes/admin.document*.tsx, admin.signatures*) is an admin page:
 * a visitor is sent to log in (with the path to come back to), a member to /login, which sends them on to their
 * own dashboard; a member's form posts change nothing.
 */

const PAGES = [
  "/admin/documents",
  "/admin/documents?page=2",
  "/admin/document/create",
  // The spec writes this path with a trailing slash; both forms are the same page (decision 024).
  "/admin/document/create/",
  "/admin/document/edit/1",
  "/admin/signatures",
  "/admin/signatures?document=1&version=1&member=mia",
  "/admin/signatures/export.csv",
];

test("a visitor is sent to log in from every page", async ({ request }) => {
  for (const path of PAGES) {
    const response = await request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(302);
    expect(response.headers()["location"], path).toMatch(/^\/login\?redirect=/);
  }
  const post = await request.post("/admin/document/create", { form: { name: "Visitor", slug: "visitor-doc", content: "<p>x</p>" }, maxRedirects: 0 });
  expect(post.status()).toBe(302);
  expect(post.headers()["location"]).toMatch(/^\/login/);
});

test("a member is refused every page and every form", async ({ page, app }) => {
  await app.logInQuickly(LEGAL_MEMBERS.bystander, LEGAL_ADMIN_PASSWORD);
  for (const path of PAGES) {
    const response = await page.request.get(path, { maxRedirects: 0 });
    expect(response.status(), path).toBe(302);
    expect(response.headers()["location"], path).toBe("/login");
  }
  const forms: Array<{ path: string; body: Record<string, string> }> = [
    { path: "/admin/document/create", body: { name: "Member doc", slug: "member-made-doc", content: "<p>x</p>" } },
    { path: "/admin/document/edit/1", body: { intent: "withdraw" } },
    { path: "/admin/document/edit/1", body: { name: "Hacked", slug: "terms-of-service", content: "<p>x</p>", intent: "publish" } },
  ];
  for (const form of forms) {
    const response = await page.request.post(form.path, { form: form.body, maxRedirects: 0 });
    expect(response.status(), form.path).toBe(302);
    expect(response.headers()["location"]).toBe("/login");
  }
  // In a browser the member ends on their own dashboard, and the public page did not change.
  await page.goto("/admin/documents");
  await expect(page).toHaveURL(/\/member\/\d+\/dashboard$/);
  await page.goto("/legal-terms/terms-of-service");
  await expect(page.getByRole("heading", { name: "1. Who we are" })).toBeVisible();
  expect((await page.request.get("/legal-terms/member-made-doc")).status()).toBe(404);
});

test("an unknown or malformed document id is the admin area's Not Found", async ({ page, app, browserErrors }) => {
  browserErrors.allowStatus(404);
  await app.logInQuickly(DEMO.admin, DEMO_PASSWORD);
  for (const path of ["/admin/document/edit/999999", "/admin/document/edit/abc", "/admin/document/edit/0"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Not Found" })).toBeVisible();
  }
});
