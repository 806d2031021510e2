import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { sessionCookieFor } from "../helpers/requests";

useTestDatabase();

describe("the real app served in-process", () => {
  let server: AppServer;
  let memberId: number;
  let memberCookie: string;

  beforeAll(async () => {
    await seedDemoData();
    const member = (await findUserByEmail("member@example.com"))!;
    memberId = member.id;
    memberCookie = await sessionCookieFor(member.id);
    server = await startAppServer();
  });

  afterAll(() => server?.close());

  it("answers the liveness probe", async () => {
    const response = await fetch(`${server.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("ok");
  });

  it("serves the build's top-level files and folders from disk, and everything else from the app", async () => {
    const icon = await fetch(`${server.url}/favicon.svg`);
    expect([icon.status, icon.headers.get("content-type"), icon.headers.get("cache-control")]).toEqual([200, "image/svg+xml", "public, max-age=3600"]);
    const nested = await fetch(`${server.url}/icons/icon-192.png`);
    expect([nested.status, nested.headers.get("content-type")]).toEqual([200, "image/png"]);
    // A name the folder does not hold is the app's: its 404 page, not the static server's.
    const missing = await fetch(`${server.url}/favicon.png`);
    expect([missing.status, missing.headers.get("content-type")]).toEqual([404, "text/html; charset=utf-8"]);
  });

  it("renders the login page as a document, with the HTTP layer's headers", async () => {
    const response = await fetch(`${server.url}/login`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.headers.get("x-request-id")).toBeTruthy();
    const nonce = /'nonce-([^']+)'/.exec(response.headers.get("content-security-policy") ?? "")?.[1];
    expect(nonce).toBeTruthy();
    const html = await response.text();
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toMatch(/<form[^>]*method="post"/);
    expect(html).toContain('name="email"');
    expect(html).toContain('name="password"');
    // The document's scripts carry the nonce of the CSP sent with it.
    expect(html).toContain(`nonce="${nonce}"`);
  });

  it("sends a visitor without a session from a member page to the login", async () => {
    const response = await fetch(`${server.url}/member/${memberId}/dashboard`, { redirect: "manual" });
    expect([302, 303]).toContain(response.status);
    const location = new URL(response.headers.get("location")!, server.url);
    expect(location.pathname).toBe("/login");
    expect(location.searchParams.get("redirect")).toBe(`/member/${memberId}/dashboard`);
  });

  it("serves the member's dashboard document and its single-fetch data", async () => {
    const page = await fetch(`${server.url}/member/${memberId}/dashboard`, { headers: { Cookie: memberCookie }, redirect: "manual" });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(await page.text()).toContain("Mia");

    const data = await fetch(`${server.url}/member/${memberId}/dashboard.data`, { headers: { Cookie: memberCookie }, redirect: "manual" });
    expect(data.status).toBe(200);
    expect(data.headers.get("content-type")).toMatch(/text\/x-script/);
    await data.arrayBuffer();
  });

  it("answers a login with a wrong password with 400 (past both origin checks)", async () => {
    const response = await fetch(`${server.url}/login`, {
      method: "POST",
      redirect: "manual",
      headers: { Origin: server.origin, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "member@example.com", password: "not-the-password", redirect: "" }),
    });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("<form");
  });

  it("counts the statements a request runs on the server side of the HTTP hop", async () => {
    const {
      result: status,
      count,
      sql,
      requests,
    } = await server.countQueries(async () => {
      const response = await fetch(`${server.url}/member/${memberId}/dashboard`, { headers: { Cookie: memberCookie }, redirect: "manual" });
      await response.text();
      return response.status;
    });
    expect(status).toBe(200);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: "GET", url: `/member/${memberId}/dashboard`, status: 200 });
    expect(count).toBeGreaterThan(0);
    expect(count).toBe(sql.length);
    // The page's loaders read the session on the server: the count saw the handler's statements.
    expect(sql.some((q) => q.includes('from "sessions"'))).toBe(true);

    // Requests made outside a countQueries call are not counted into the next one.
    await (await fetch(`${server.url}/login`)).text();
    const none = await server.countQueries(async () => 0);
    expect(none).toMatchObject({ count: 0, requests: [] });
  });
});
