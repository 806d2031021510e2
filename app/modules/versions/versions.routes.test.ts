import { beforeAll, describe, expect, it, vi } from "vitest";
import * as adminVersions from "~/routes/admin.versions";
import * as latestRoute from "~/routes/api.versions.latest";
import * as previewRoute from "~/routes/api.versions.preview";
import * as viewRoute from "~/routes/api.versions.$id.view";
import { useTestDatabase } from "../../../tests/helpers/database";
import { createUser } from "../../../tests/helpers/factories";
import { contextFor, requestAs, sessionCookieFor } from "../../../tests/helpers/requests";
import { useTestSettings } from "../../../tests/setup/settings";
import { publishVersion } from "./versions.server";

useTestDatabase();
// Nothing listens in these tests: point the broadcaster at a closed port (publishing is best effort).
useTestSettings({ REALTIME_HOST: "127.0.0.1", REALTIME_PORT: "1" });
const originalError = console.error.bind(console);
vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
  if (typeof args[0] === "string" && args[0].includes("realtime publish failed")) return;
  originalError(...args);
});

type Args = { request: Request; params: Record<string, string>; context: unknown };
const call = async (fn: unknown, request: Request, params: Record<string, string> = {}): Promise<unknown> => {
  try {
    return await (fn as (args: Args) => Promise<unknown>)({ request, params, context: await contextFor(request) } as never);
  } catch (thrown) {
    return thrown;
  }
};

function post(cookie: string | null, path: string, body: Record<string, string> = {}): Request {
  return new Request(`http://localhost:3999${path}`, {
    method: "POST",
    headers: { ...(cookie ? { Cookie: cookie } : {}), "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body),
  });
}

async function json(response: unknown) {
  expect(response).toBeInstanceOf(Response);
  return { status: (response as Response).status, body: await (response as Response).json() };
}

let memberCookie: string;
let adminCookie: string;
let member: Awaited<ReturnType<typeof createUser>>;

beforeAll(async () => {
  member = await createUser();
  const admin = await createUser({ acctType: 2, roleId: 1 });
  memberCookie = await sessionCookieFor(member.id);
  adminCookie = await sessionCookieFor(admin.id);
});

describe("GET /api/versions/latest", () => {
  it("needs a session (401 JSON)", async () => {
    expect(await json(await call(latestRoute.loader, requestAs(null, "/api/versions/latest")))).toEqual({
      status: 401,
      body: { message: "Unauthenticated.", errors: "Unauthenticated." },
    });
  });

  it("answers { data: null } before any version, then the newest and whether this user saw it", async () => {
    const get = () => call(latestRoute.loader, requestAs(memberCookie, "/api/versions/latest"));
    expect(await json(await get())).toEqual({ status: 200, body: { data: null } });

    const version = await publishVersion({ name: "1.0", content: "<p>First</p><script>x()</script>", publishedBy: null });
    expect(await json(await get())).toEqual({
      status: 200,
      body: { data: { version: { id: version.id, name: "1.0", content: "<p>First</p>" }, seen: false } },
    });

    const viewed = await call(viewRoute.action, post(memberCookie, `/api/versions/${version.id}/view`), { id: String(version.id) });
    expect((viewed as Response).status).toBe(204);
    expect((await json(await get())).body.data.seen).toBe(true);
  });
});

describe("POST /api/versions/{id}/view", () => {
  it("needs a session (401 JSON)", async () => {
    const version = await publishVersion({ name: "2.0", content: "<p>x</p>", publishedBy: null });
    const response = await call(viewRoute.action, post(null, `/api/versions/${version.id}/view`), { id: String(version.id) });
    expect((await json(response)).status).toBe(401);
  });

  it("answers 404 JSON for an unknown or malformed id", async () => {
    for (const id of ["999999", "0", "abc", "99999999999"]) {
      const response = await call(viewRoute.action, post(memberCookie, `/api/versions/${id}/view`), { id });
      expect(await json(response)).toEqual({ status: 404, body: { message: "Not found.", errors: "Not found." } });
    }
  });

  it("records the view once and answers 204 every time", async () => {
    const version = await publishVersion({ name: "3.0", content: "<p>x</p>", publishedBy: null });
    for (let i = 0; i < 2; i++) {
      const response = (await call(viewRoute.action, post(memberCookie, `/api/versions/${version.id}/view`), {
        id: String(version.id),
      })) as Response;
      expect(response.status).toBe(204);
      expect(await response.text()).toBe("");
    }
    const list = await call(adminVersions.loader, requestAs(adminCookie, "/admin/versions"));
    const row = (list as Awaited<ReturnType<typeof adminVersions.loader>>).list.versions.find((v) => v.id === version.id);
    expect(row!.seenCount).toBe(1);
  });

  it("GET is not allowed (405 JSON)", async () => {
    expect((await json(await call(viewRoute.loader, requestAs(memberCookie, "/api/versions/1/view")))).status).toBe(405);
  });
});

describe("POST /api/versions/preview", () => {
  it("is for administrators only", async () => {
    expect((await json(await call(previewRoute.action, post(null, "/api/versions/preview", { content: "x" })))).status).toBe(401);
    expect((await json(await call(previewRoute.action, post(memberCookie, "/api/versions/preview", { content: "x" })))).status).toBe(403);
  });

  it("answers the HTML as it would be stored", async () => {
    const response = await call(previewRoute.action, post(adminCookie, "/api/versions/preview", { content: '<h2 onclick="x()">Hi</h2><script>x()</script>' }));
    expect(await json(response)).toEqual({ status: 200, body: { data: { html: "<h2>Hi</h2>" } } });
    expect((await json(await call(previewRoute.action, post(adminCookie, "/api/versions/preview")))).status).toBe(422);
  });
});

describe("/admin/versions", () => {
  it("is for administrators only", async () => {
    const page = (await call(adminVersions.loader, requestAs(memberCookie, "/admin/versions"))) as Response;
    expect(page.status).toBe(302);
    expect(page.headers.get("Location")).toBe("/login");
    const publish = (await call(adminVersions.action, post(memberCookie, "/admin/versions", { name: "x", content: "<p>x</p>" }))) as Response;
    expect(publish.status).toBe(302);
    expect(publish.headers.get("Location")).toBe("/login");
  });

  it("publishes a version and comes back to the list with a message", async () => {
    const response = (await call(
      adminVersions.action,
      post(adminCookie, "/admin/versions", { name: "9.0", content: "<h2>New</h2><ul><li>Faster</li></ul>" }),
    )) as Response;
    expect(response.status).toBe(302);
    // `?done=<id>` lets the page empty the form only after a successful publish (redirectAfterSuccess).
    expect(response.headers.get("Location")).toMatch(/^\/admin\/versions\?done=\d+$/);
    expect(response.headers.get("Set-Cookie")).toContain("backline_flash=");
    const { list } = (await call(adminVersions.loader, requestAs(adminCookie, "/admin/versions?page=oops"))) as Awaited<
      ReturnType<typeof adminVersions.loader>
    >;
    expect(list.page).toBe(1);
    expect(list.versions[0]).toMatchObject({ name: "9.0", content: "<h2>New</h2><ul><li>Faster</li></ul>", seenCount: 1 });
  });

  it("puts validation messages beside the fields (400)", async () => {
    type Reply = { data: { status?: string; error?: Record<string, string[] | null> }; init: { status: number } };
    const tooLong = (await call(adminVersions.action, post(adminCookie, "/admin/versions", { name: "x".repeat(81), content: "" }))) as Reply;
    expect(tooLong.init.status).toBe(400);
    expect(tooLong.data.error?.name?.[0]).toMatch(/at most 80/);
    expect(tooLong.data.error?.content).toEqual(["Describe what is new."]);

    const unreadable = (await call(adminVersions.action, post(adminCookie, "/admin/versions", { name: "10.0", content: "<script>x()</script>" }))) as Reply;
    expect(unreadable.init.status).toBe(400);
    expect(unreadable.data.error?.content?.[0]).toMatch(/Nothing readable/);
  });
});
