/**
 * The outside probe's defects and its "also noticed" list, each driven over HTTP through the
 * real Express app (server/app.js) and the real React Router handler (tests/helpers/app-server.ts).
 * Every refusal asserts its status, that nothing was written to the database (the rows the request would
 * have changed, read before and after), and, for the DoS case, that the server still answers /healthz
 * at once while the bad request is in flight. Decision 012 says where each rule lives.
 */
import fs from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { eq, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import {
  contactMessages,
  legalDocuments,
  notifications,
  profiles,
  rateLimits,
  referenceValues,
  sessions,
  signatures,
  users,
  type Profile,
  type User,
} from "~/db/schema";
import { DEMO_PASSWORD, seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { readFlash } from "~/modules/flash/flash.server";
import { IMAGE_MESSAGES } from "~/modules/images/image-rules";
import { LEGAL_AGREEMENT_REQUIRED } from "~/modules/legal/legal-gate";
import { outboxDir } from "~/modules/mail/mailer.server";
import { FORM_BODY_MESSAGES } from "~/modules/security/form-body.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { deliverQueuedMail } from "../helpers/mail";
import { createSignedMember, createUser, TEST_PASSWORD, uniqueEmail } from "../helpers/factories";
import { sessionCookieFor } from "../helpers/requests";
import { useTestSettings } from "../setup/settings";

useTestDatabase();

const EVIL = "https://evil.example";
const CROSS_SITE_REFUSED = "Cross-site request refused.";

let server: AppServer;
let admin: User;
let member: User;
let newcomer: User;
let artist: Profile;
let musician: Profile;

beforeAll(async () => {
  await seedDemoData();
  admin = (await findUserByEmail("admin@example.com"))!;
  member = (await findUserByEmail("member@example.com"))!;
  newcomer = (await findUserByEmail("new@example.com"))!;
  [artist] = await db().select().from(profiles).where(eq(profiles.username, "midnight-owls"));
  [musician] = await db().select().from(profiles).where(eq(profiles.username, "mia"));
  server = await startAppServer();
});

afterAll(() => server?.close());

// Login and contact counters live in the database: each test starts with none, so their order does not matter.
beforeEach(async () => {
  await db().delete(rateLimits);
});

// ---------------------------------------------------------------- helpers

type Fields = Record<string, string> | Array<[string, string]>;

/** What a browser sends with a form post from one of our pages (Origin), unless `headers` says otherwise. */
function post(path: string, options: { cookie?: string; fields?: Fields; headers?: Record<string, string>; body?: BodyInit; base?: AppServer } = {}) {
  const base = options.base ?? server;
  const headers: Record<string, string> = { Origin: base.origin, ...options.headers };
  if (options.cookie) headers.Cookie = options.cookie;
  let body = options.body;
  if (options.fields) {
    body = new URLSearchParams(options.fields);
    headers["Content-Type"] ??= "application/x-www-form-urlencoded";
  }
  // Headers set to "" are left out (how a test drops the Origin).
  for (const [name, value] of Object.entries(headers)) if (value === "") delete headers[name];
  return fetch(`${base.url}${path}`, { method: "POST", redirect: "manual", headers, body });
}

function get(path: string, cookie?: string, headers: Record<string, string> = {}) {
  return fetch(`${server.url}${path}`, { redirect: "manual", headers: { ...headers, ...(cookie ? { Cookie: cookie } : {}) } });
}

/** Rows of `table` (matching `where`). */
async function count(table: PgTable, where?: SQL): Promise<number> {
  return (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(where)
  )[0]!.n;
}

/**
 * The rows any of the requests below could write: a refused request must leave every one as it was.
 * (rate_limits is left out: counting a login attempt is what a login does.)
 */
async function writes() {
  const [latest] = await db()
    .select({
      usersUpdatedAt: sql<string>`(select max(updated_at)::text from users)`,
      profilesUpdatedAt: sql<string>`(select max(updated_at)::text from profiles)`,
      suspended: sql<number>`(select count(*)::int from users where suspended_at is not null)`,
    })
    .from(sql`(select 1) as one`);
  return {
    users: await count(users),
    sessions: await count(sessions),
    contactMessages: await count(contactMessages),
    notifications: await count(notifications),
    referenceValues: await count(referenceValues),
    signatures: await count(signatures),
    profiles: await count(profiles),
    ...latest,
  };
}

/** Runs `act` and asserts that it wrote nothing the fingerprint above can see. */
async function writesNothing<T>(act: () => Promise<T>): Promise<T> {
  const before = await writes();
  const result = await act();
  expect(await writes()).toEqual(before);
  return result;
}

async function timed<T>(promise: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await promise;
  return { value, ms: performance.now() - started };
}

/** GET /healthz, timed; the body is read so the whole answer is in the time. */
async function healthz(base = server) {
  return timed(fetch(`${base.url}/healthz`).then(async (r) => ({ status: r.status, text: await r.text() })));
}

function cookieOf(response: Response, name: string): string | null {
  return (
    response.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${name}=`))
      ?.split(";")[0] ?? null
  );
}

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** From sending the headers to the end of the answer. */
  ms: number;
  /** Resolves when the server has closed the socket (never, when it keeps it open). */
  closed: Promise<void>;
}

/**
 * node:http instead of fetch, to declare a Content-Length that is not sent, stream a body chunked, and see
 * the socket close. `end: false` leaves the request body unfinished: the server must answer anyway.
 */
function rawRequest(
  path: string,
  options: { method?: string; headers?: http.OutgoingHttpHeaders; body?: Buffer | string; end?: boolean },
): Promise<RawResponse> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    let responded = false;
    const req = http.request(`${server.url}${path}`, { method: options.method ?? "POST", headers: options.headers, agent: false });
    const closed = new Promise<void>((done) => req.once("socket", (socket) => socket.once("close", () => done())));
    req.on("response", (res) => {
      responded = true;
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", () => {});
      res.on("end", () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString(), ms: performance.now() - started, closed }),
      );
    });
    // Writing on after the server answered and closed is expected here (EPIPE/ECONNRESET); before it, a failure.
    req.on("error", (error) => {
      if (!responded) reject(error);
    });
    if (options.body !== undefined) req.write(options.body);
    if (options.end !== false) req.end();
  });
}

/** `promise`'s value, or "timeout" when it takes longer than `ms`. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | "timeout"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

const dashboardOf = (user: User) => `/member/${user.id}/dashboard`;

async function login(email: string, password: string, options: { redirect?: string; ip?: string; base?: AppServer } = {}) {
  return post("/login", {
    base: options.base,
    fields: { email, password, redirect: options.redirect ?? "" },
    headers: options.ip ? { "X-Forwarded-For": options.ip } : {},
  });
}

// ---------------------------------------------------------------- 1. open redirects

describe("1. open redirects: only a path of our own site is followed", () => {
  // Each of these collapses into //evil.example (or is another site outright) once the browser parses it.
  const FOREIGN = ["/.//evil.example", "/a/..//evil.example", "/%2e%2e//evil.example", "/./\\evil.example", "/\\evil.example", "//evil.example", EVIL];

  it.each(FOREIGN)("GET /login?redirect=%s with a session goes to the member's dashboard", async (target) => {
    const cookie = await sessionCookieFor(member.id);
    const response = await get(`/login?redirect=${encodeURIComponent(target)}`, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(dashboardOf(member));
  });

  it("GET /login?redirect= follows a path of our own, query included", async () => {
    const cookie = await sessionCookieFor(member.id);
    const own = `/member/${member.id}/profile?tab=password`;
    const response = await get(`/login?redirect=${encodeURIComponent(own)}`, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(own);
  });

  it.each(FOREIGN)("POST /login with redirect=%s lands on the dashboard", async (target) => {
    const response = await login(member.email, DEMO_PASSWORD, { redirect: target });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(dashboardOf(member));
  });

  it("POST /login follows a good redirect", async () => {
    const own = `/member/${member.id}/contact-us`;
    const response = await login(member.email, DEMO_PASSWORD, { redirect: own });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(own);
  });

  it.each(FOREIGN)("the bell's clear with redirectTo=%s returns to /", async (target) => {
    const cookie = await sessionCookieFor(member.id);
    const response = await post(`/member/${member.id}/notifications`, { cookie, fields: { intent: "clear", redirectTo: target } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
  });

  it("the bell returns to a page of our own", async () => {
    const cookie = await sessionCookieFor(member.id);
    const own = `/member/${member.id}/contact-us`;
    const response = await post(`/member/${member.id}/notifications`, { cookie, fields: { intent: "clear", redirectTo: own } });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(own);
  });
});

// ---------------------------------------------------------------- 2. sparse list indexes

describe("2. list fields: a huge or sparse index is refused before any array is built", () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await sessionCookieFor(member.id);
  });

  const readProfile = async (id: number) => (await db().select().from(profiles).where(eq(profiles.id, id)))[0]!;

  /** The details form as the page sends it, with the current name and username. */
  const detailsOf = (profile: Profile, extra: Array<[string, string]>): Array<[string, string]> => [
    ["intent", "details"],
    ["name", profile.name],
    ["username", profile.username],
    ["bio", profile.bio ?? ""],
    ["location", profile.location ?? ""],
    ...extra,
  ];

  it("links[99999999].url answers 400 at once, changes nothing, and /healthz answers meanwhile", async () => {
    const before = await readProfile(artist.id);
    const { bad, health } = await writesNothing(async () => {
      // The probe's request froze the event loop for 22.9 s: /healthz sent while it runs must still answer at once.
      const bad = timed(
        post(`/member/${member.id}/artist-profile/${artist.id}`, {
          cookie,
          fields: [
            ["intent", "details"],
            ["links[99999999].url", "https://x.example/"],
          ],
        }).then(async (r) => ({ status: r.status, text: await r.text() })),
      );
      const health = await Promise.all([healthz(), new Promise((r) => setTimeout(r, 20)).then(() => healthz())]);
      return { bad: await bad, health };
    });
    expect(bad.value.status).toBe(400);
    expect(bad.value.text).toContain(FORM_BODY_MESSAGES.tooManyRows);
    expect(bad.ms).toBeLessThan(1000);
    for (const h of health) {
      expect(h.value).toEqual({ status: 200, text: "ok" });
      expect(h.ms).toBeLessThan(1000);
    }
    expect(await readProfile(artist.id)).toEqual(before);
  });

  it.each([
    ["rates[99999999].label", "Mixing"],
    ["credits[99999999].title", "A song"],
    ["sampleLinks[99999999].url", "https://x.example/"],
    ["values_genre[99999999]", "1"],
    ["links[99999999999999999999].url", "https://x.example/"],
  ])("every list of a provider profile is capped too: %s → 400", async (name, value) => {
    const before = await readProfile(musician.id);
    const response = await writesNothing(() =>
      post(`/member/${member.id}/musician-profile/${musician.id}`, { cookie, fields: detailsOf(musician, [[name, value]]) }),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(FORM_BODY_MESSAGES.tooManyRows);
    expect(await readProfile(musician.id)).toEqual(before);
  });

  it("a list of 101 rows (links[0] to links[100]) answers 400", async () => {
    const rows = Array.from({ length: 101 }, (_, i): [string, string] => [`links[${i}].url`, `https://x.example/${i}`]);
    const response = await writesNothing(() => post(`/member/${member.id}/artist-profile/${artist.id}`, { cookie, fields: detailsOf(artist, rows) }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(FORM_BODY_MESSAGES.tooManyRows);
  });

  it("a form with more than 1,000 fields answers 400", async () => {
    const many = Array.from({ length: 1001 }, (_, i): [string, string] => [`field${i}`, "x"]);
    const response = await writesNothing(() => post(`/member/${member.id}/artist-profile/${artist.id}`, { cookie, fields: detailsOf(artist, many) }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(FORM_BODY_MESSAGES.tooManyFields);
  });

  it("an ordinary details form with links[0] is still saved", async () => {
    const response = await post(`/member/${member.id}/artist-profile/${artist.id}`, {
      cookie,
      fields: detailsOf(artist, [
        ["links[0].label", "Website"],
        ["links[0].url", "https://x.example/"],
      ]),
    });
    expect([302, 303]).toContain(response.status);
    expect(response.headers.get("location")).toBe(`/member/${member.id}/artist-profile/${artist.id}`);
    expect((await readProfile(artist.id)).links).toEqual([{ label: "Website", url: "https://x.example/" }]);
  });
});

// ---------------------------------------------------------------- 3. unreadable bodies

describe("3. a body that is not a readable form answers 415 or 400 with a clear message", () => {
  const BOUNDARY = "----hardening-boundary";
  const truncated = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="subject"\r\n\r\nHel`;
  const CASES: Array<{ what: string; headers: Record<string, string>; body: BodyInit; status: number; message: string }> = [
    // A Uint8Array body makes fetch send no Content-Type at all.
    {
      what: "no Content-Type",
      headers: {},
      body: new TextEncoder().encode("subject=Hi&message=Hello"),
      status: 415,
      message: FORM_BODY_MESSAGES.unsupportedType,
    },
    {
      what: "application/json",
      headers: { "Content-Type": "application/json" },
      body: '{"subject":"Hi","message":"Hello"}',
      status: 415,
      message: FORM_BODY_MESSAGES.unsupportedType,
    },
    {
      what: "text/plain",
      headers: { "Content-Type": "text/plain" },
      body: "subject=Hi&message=Hello",
      status: 415,
      message: FORM_BODY_MESSAGES.unsupportedType,
    },
    {
      what: "multipart without boundary",
      headers: { "Content-Type": "multipart/form-data" },
      body: `--x\r\nContent-Disposition: form-data; name="subject"\r\n\r\nHi\r\n--x--\r\n`,
      status: 400,
      message: FORM_BODY_MESSAGES.unreadable,
    },
    {
      what: "truncated multipart",
      headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
      body: truncated,
      status: 400,
      message: FORM_BODY_MESSAGES.unreadable,
    },
  ];

  const ROUTES = [
    { path: () => `/member/${member.id}/contact-us`, session: true },
    { path: () => "/login", session: false },
    { path: () => "/register", session: false },
  ];

  for (const route of ROUTES) {
    describe(route.session ? "/member/{id}/contact-us" : route.path(), () => {
      it.each(CASES)("$what → $status", async ({ headers, body, status, message }) => {
        const cookie = route.session ? await sessionCookieFor(member.id) : undefined;
        const response = await writesNothing(() => post(route.path(), { cookie, headers, body }));
        expect(response.status).toBe(status);
        // The one error page shows the server's message (never a 5xx, never a stack).
        expect(await response.text()).toContain(message);
      });
    });
  }
});

// ---------------------------------------------------------------- 4. NUL bytes

describe("4. NUL and other control characters: a field message, or 400 for an address", () => {
  const NUL = "\u0000";
  const fieldError = (html: string, errorId: string) =>
    new RegExp(`id="${errorId}"[^>]*>(?:<li>[^<]*</li>)*<li>${FORM_BODY_MESSAGES.controlCharacters.replace(/\./g, "\\.")}</li>`).test(html);

  it("Contact us: a NUL in the subject is a message beside the subject, nothing is stored", async () => {
    const cookie = await sessionCookieFor(member.id);
    const response = await writesNothing(() =>
      post(`/member/${member.id}/contact-us`, { cookie, fields: { subject: `Hello${NUL}there`, message: "A normal message." } }),
    );
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldError(html, "contact-us-subject-error"), html.slice(0, 2000)).toBe(true);
    expect(await count(contactMessages, eq(contactMessages.userId, member.id))).toBe(0);
  });

  it("Register: a NUL in the first name answers 400 and creates no user", async () => {
    const email = uniqueEmail("nul");
    const response = await writesNothing(() =>
      post("/register", {
        fields: { name: `Nu${NUL}l`, lastName: "Byte", email, password: "a-good-password", passwordConfirmation: "a-good-password", terms: "on" },
      }),
    );
    expect(response.status).toBe(400);
    expect(fieldError(await response.text(), "register-name-error")).toBe(true);
    expect(await findUserByEmail(email)).toBeUndefined();
  });

  it("Admin genres: creating a genre with a NUL in its name answers 400, nothing is added", async () => {
    const cookie = await sessionCookieFor(admin.id);
    const before = await count(referenceValues, eq(referenceValues.kind, "genre"));
    const response = await writesNothing(() => post("/admin/genres", { cookie, fields: { intent: "create", name: `Dream${NUL}pop` } }));
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(FORM_BODY_MESSAGES.controlCharacters);
    expect(await count(referenceValues, eq(referenceValues.kind, "genre"))).toBe(before);
  });

  it("Admin announcements: a NUL in the message answers 400, nobody is notified", async () => {
    const cookie = await sessionCookieFor(admin.id);
    const response = await writesNothing(() =>
      post("/admin/announcements", { cookie, fields: { audience: "all", email: "", message: `Hello${NUL}`, color: "blue" } }),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(FORM_BODY_MESSAGES.controlCharacters);
  });

  it("Artist page: a NUL in the bio answers 400, the page is unchanged", async () => {
    const cookie = await sessionCookieFor(member.id);
    const response = await writesNothing(() =>
      post(`/member/${member.id}/artist-profile/${artist.id}`, {
        cookie,
        fields: { intent: "details", name: artist.name, username: artist.username, bio: `Late${NUL}trains`, location: "" },
      }),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toContain(FORM_BODY_MESSAGES.controlCharacters);
  });

  it.each<[string, () => string, boolean]>([
    ["a search query", () => `/member/${member.id}/artists?q=%00`, true],
    ["a path segment", () => "/artists/%00", false],
    ["the login redirect", () => "/login?redirect=%00", true],
    ["an encoded control character in a member path", () => `/member/${member.id}/artists/%01x`, true],
  ])("%s with %00 answers 400 (or 404), never 500", async (_what, path, session) => {
    const cookie = session ? await sessionCookieFor(member.id) : undefined;
    const response = await writesNothing(() => get(path(), cookie));
    expect([400, 404]).toContain(response.status);
    await response.text();
  });

  it("GET /member/{id}/artists?q=%00 and /login?redirect=%00 are exactly 400", async () => {
    const cookie = await sessionCookieFor(member.id);
    expect((await get(`/member/${member.id}/artists?q=%00`, cookie)).status).toBe(400);
    expect((await get("/login?redirect=%00", cookie)).status).toBe(400);
  });
});

// ---------------------------------------------------------------- 5. JSON null

describe("5. a JSON null body on the broadcasting endpoints", () => {
  it.each(["/broadcasting/auth", "/api/broadcasting/auth", "/broadcasting/user-auth"])("%s: 401 without a session, 422 with one", async (path) => {
    const json = { "Content-Type": "application/json", Accept: "application/json" };
    const anonymous = await writesNothing(() => post(path, { headers: json, body: "null" }));
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ message: "Unauthenticated." });

    const cookie = await sessionCookieFor(member.id);
    const signedIn = await writesNothing(() => post(path, { cookie, headers: json, body: "null" }));
    expect(signedIn.status).toBe(422);
    expect((await signedIn.json()).message).toMatch(/socket_id/);
  });
});

// ---------------------------------------------------------------- 6. cross-site writes

describe("6. a write that carries the session cookie must prove it comes from our pages", () => {
  /** No Origin, no Referer, no Sec-Fetch-Site: what a forged or stripped request looks like. */
  const BARE = { Origin: "" };

  const nameOf = async (id: number) => (await db().select({ name: users.name }).from(users).where(eq(users.id, id)))[0]!.name;
  const sessionCount = (userId: number) => count(sessions, eq(sessions.userId, userId));

  it("changing the member's name", async () => {
    const user = await createSignedMember("Nora");
    const cookie = await sessionCookieFor(user.id);
    const names = (name: string) => ({ intent: "names", name, lastName: "Tester", email: user.email });
    const path = `/member/${user.id}/profile`;

    const forged: Array<Record<string, string>> = [
      BARE,
      { Origin: EVIL },
      { Origin: "", "Sec-Fetch-Site": "cross-site" },
      { Origin: "", Referer: `${EVIL}/form` },
    ];
    for (const headers of forged) {
      const refused = await writesNothing(() => post(path, { cookie, headers, fields: names("Mallory") }));
      expect(refused.status, JSON.stringify(headers)).toBe(403);
      expect(await refused.text()).toContain(CROSS_SITE_REFUSED);
    }
    expect(await nameOf(user.id)).toBe("Nora");

    const byReferer = await post(path, { cookie, headers: { Origin: "", Referer: `${server.origin}${path}` }, fields: names("Nadia") });
    expect(byReferer.status).toBe(302);
    expect(await nameOf(user.id)).toBe("Nadia");

    const bySecFetch = await post(path, { cookie, headers: { Origin: "", "Sec-Fetch-Site": "same-origin" }, fields: names("Nell") });
    expect(bySecFetch.status).toBe(302);
    expect(await nameOf(user.id)).toBe("Nell");
  });

  it("logging out: refused without proof, and the session still works afterwards", async () => {
    const user = await createSignedMember("Otto");
    const cookie = await sessionCookieFor(user.id);
    for (const headers of [BARE, { Origin: EVIL }]) {
      const refused = await writesNothing(() => post("/logout", { cookie, headers }));
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain(CROSS_SITE_REFUSED);
    }
    expect(await sessionCount(user.id)).toBe(1);
    expect((await get(dashboardOf(user), cookie)).status).toBe(200);

    const loggedOut = await post("/logout", { cookie, headers: { Origin: "", Referer: `${server.origin}${dashboardOf(user)}` } });
    expect(loggedOut.status).toBe(302);
    expect(loggedOut.headers.get("location")).toBe("/login");
    expect(await sessionCount(user.id)).toBe(0);
  });

  it("an administrator suspending a member", async () => {
    const target = await createSignedMember("Petra");
    const cookie = await sessionCookieFor(admin.id);
    const path = `/admin/member/${target.id}`;
    const suspendedAt = async () => (await db().select({ at: users.suspendedAt }).from(users).where(eq(users.id, target.id)))[0]!.at;

    for (const headers of [BARE, { Origin: EVIL }]) {
      const refused = await writesNothing(() => post(path, { cookie, headers, fields: { intent: "suspend" } }));
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain(CROSS_SITE_REFUSED);
    }
    expect(await suspendedAt()).toBeNull();

    const suspended = await post(path, { cookie, headers: { Origin: "", "Sec-Fetch-Site": "same-origin" }, fields: { intent: "suspend" } });
    expect(suspended.status).toBe(302);
    expect(await suspendedAt()).not.toBeNull();
  });

  it("an administrator posting an announcement", async () => {
    const cookie = await sessionCookieFor(admin.id);
    const fields = { audience: "all", email: "", message: "Maintenance tonight", color: "blue" };
    for (const headers of [BARE, { Origin: EVIL }]) {
      const refused = await writesNothing(() => post("/admin/announcements", { cookie, headers, fields }));
      expect(refused.status).toBe(403);
      expect(await refused.text()).toContain(CROSS_SITE_REFUSED);
    }
    const before = await count(notifications);
    const sent = await post("/admin/announcements", { cookie, headers: { Origin: "", Referer: `${server.origin}/admin/announcements` }, fields });
    expect(sent.status).toBe(302);
    expect(await count(notifications)).toBeGreaterThan(before);
  });

  it("a request without the session cookie acts for nobody: no Origin is not refused (a wrong password is 400)", async () => {
    const response = await post("/login", { headers: BARE, fields: { email: member.email, password: "not-the-password", redirect: "" } });
    expect(response.status).toBe(400);
    expect(await response.text()).toContain("These credentials do not match our records.");
  });

  it("…but a header that names another site refuses it even without the cookie", async () => {
    const response = await post("/login", { headers: { Origin: EVIL }, fields: { email: member.email, password: DEMO_PASSWORD, redirect: "" } });
    expect(response.status).toBe(403);
    expect(cookieOf(response, "backline_session")).toBeNull();
  });
});

// ---------------------------------------------------------------- 7. body limits

describe("7. body limits: refused before the body is read", () => {
  const FORM = "application/x-www-form-urlencoded";

  it("a 5 MB form post to /login gets its 413 while still sending: the rest is read and dropped (a lingering close), and the connection stays usable", async () => {
    const total = 5 * 1024 * 1024;
    const socket = net.connect(Number(new URL(server.url).port), "127.0.0.1");
    await new Promise((resolve) => socket.once("connect", resolve));
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("latin1")));
    const closed = new Promise<string>((resolve) => {
      socket.once("error", (error) => resolve(`error ${(error as NodeJS.ErrnoException).code}`));
      socket.once("close", () => resolve("closed"));
    });
    const answer = async (marker: string) => {
      for (let i = 0; i < 200 && !received.includes(marker); i++) await new Promise((resolve) => setTimeout(resolve, 10));
      return received;
    };
    socket.write(`POST /login HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${server.origin}\r\nContent-Type: ${FORM}\r\nContent-Length: ${total}\r\n\r\n`);
    socket.write(Buffer.alloc(64 * 1024, "x"));
    // The 413 comes from the headers, while the client is still sending.
    expect(await answer("(at most 1024 KB).")).toMatch(/^HTTP\/1\.1 413 /);
    // The client goes on sending the rest (as a browser or Node's fetch does): nothing is cut off under it ...
    for (let sent = 64 * 1024; sent < total; sent += 256 * 1024) {
      const chunk = Buffer.alloc(Math.min(256 * 1024, total - sent), "x");
      const written = await new Promise<string>((resolve) =>
        socket.write(chunk, (error) => resolve(error ? `error ${(error as NodeJS.ErrnoException).code}` : "ok")),
      );
      expect(written).toBe("ok");
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    // ... and once the body is read through, the same connection answers the next request.
    received = "";
    socket.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    expect(await answer("\r\n\r\n")).toMatch(/^HTTP\/1\.1 200 /);
    expect(await within(closed, 50)).toBe("timeout");
    socket.destroy();
  });

  it("a declared 200 MB login is refused with 413 at once, and the server closes the socket", async () => {
    // Only 4 KB of the 200 MB are ever sent: the answer must not wait for the rest.
    const response = await writesNothing(() =>
      rawRequest("/login", {
        headers: { "Content-Type": FORM, "Content-Length": "200000000", Origin: server.origin },
        body: `email=a%40example.test&password=${"x".repeat(4096)}`,
        end: false,
      }),
    );
    expect(response.status).toBe(413);
    expect(response.ms).toBeLessThan(1000);
    // The rest never comes: after a second without any, the connection is dropped (drainUnreadBody's bounds).
    expect(await within(response.closed, 2000)).not.toBe("timeout");
    // The HTTP layer is still fine afterwards.
    expect((await healthz()).value.status).toBe(200);
  });

  it("a 1.5 MB urlencoded body to /login is refused with 413", async () => {
    const body = `email=a%40example.test&password=x&filler=${"x".repeat(1.5 * 1024 * 1024)}`;
    const response = await writesNothing(() =>
      rawRequest("/login", { headers: { "Content-Type": FORM, "Content-Length": Buffer.byteLength(body), Origin: server.origin }, body }),
    );
    expect(response.status).toBe(413);
  });

  it("a chunked body without Content-Length is refused with 411", async () => {
    const response = await writesNothing(() =>
      rawRequest("/login", {
        headers: { "Content-Type": FORM, "Transfer-Encoding": "chunked", Origin: server.origin },
        body: "email=a%40example.test&password=x",
        end: false,
      }),
    );
    expect(response.status).toBe(411);
    expect(await within(response.closed, 2000)).not.toBe("timeout");
  });

  it("an upload route is not held to 1 MB: a 6 MB avatar reaches the app, which answers with the field's message", async () => {
    const cookie = await sessionCookieFor(member.id);
    const boundary = "----avatar-boundary";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="intent"\r\n\r\navatar\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="avatar"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const body = Buffer.concat([head, Buffer.alloc(6 * 1024 * 1024, 0x41), tail]);
    const response = await writesNothing(() =>
      rawRequest(`/member/${member.id}/profile`, {
        headers: { "Content-Type": `multipart/form-data; boundary=${boundary}`, "Content-Length": body.length, Origin: server.origin, Cookie: cookie },
        body,
      }),
    );
    expect(response.status).toBe(413);
    // The app's own answer (the page with the message beside the file field), not the HTTP layer's plain text.
    expect(response.headers["content-type"]).toMatch(/^text\/html/);
    expect(response.body).toContain(IMAGE_MESSAGES.tooLarge);
  });
});

// ---------------------------------------------------------------- 8. login limiting

describe("8. login limiting: failures only, per account and address, with a slower global account limit", () => {
  // Small limits for this block (app/env.server.ts), restored afterwards. Per address above per account
  // and address, so that each test below trips the limit it is about and not another one.
  const PER_IP = 4;
  const PER_ACCOUNT = 2;
  const GLOBAL_PER_ACCOUNT = 5;
  const SMALL_LIMITS = {
    LOGIN_LIMIT_PER_IP: String(PER_IP),
    LOGIN_LIMIT_PER_ACCOUNT: String(PER_ACCOUNT),
    LOGIN_LIMIT_PER_ACCOUNT_GLOBAL: String(GLOBAL_PER_ACCOUNT),
    LOGIN_LIMIT_WINDOW_SECONDS: "900",
  };
  let proxied: AppServer;

  beforeAll(async () => {
    useTestSettings(SMALL_LIMITS);
    // Behind a proxy the client's address is X-Forwarded-For: how these tests vary it.
    proxied = await startAppServer({ trustProxy: true });
  });

  afterAll(async () => {
    await proxied?.close();
    useTestSettings();
  });

  const attempt = (email: string, password: string, ip: string) => login(email, password, { ip, base: proxied });

  it("an office behind one address is never locked out by successful logins", async () => {
    const user = await createUser();
    for (let i = 0; i < PER_IP * 2 + 1; i++) {
      const response = await attempt(user.email, TEST_PASSWORD, "10.1.0.1");
      expect(response.status, `login ${i + 1}`).toBe(302);
    }
  });

  it("failures from one address are still limited per address", async () => {
    for (let i = 0; i < PER_IP; i++) {
      expect((await attempt(uniqueEmail("nobody"), "wrong-password", "10.2.0.1")).status).toBe(400);
    }
    const user = await createUser();
    expect((await attempt(user.email, TEST_PASSWORD, "10.2.0.1")).status).toBe(429);
    // Another address is not affected.
    expect((await attempt(user.email, TEST_PASSWORD, "10.2.0.2")).status).toBe(302);
  });

  it("wrong passwords lock the account for that address only", async () => {
    const user = await createUser();
    for (let i = 0; i < PER_ACCOUNT; i++) {
      expect((await attempt(user.email, "wrong-password", "10.3.0.1")).status).toBe(400);
    }
    const locked = await attempt(user.email, TEST_PASSWORD, "10.3.0.1");
    expect(locked.status).toBe(429);
    expect(await locked.text()).toContain("Too many login attempts");
    expect(cookieOf(locked, "backline_session")).toBeNull();

    expect((await attempt(user.email, TEST_PASSWORD, "10.3.0.2")).status).toBe(302);
  });

  it("failures from many addresses reach the slower global limit of the account", async () => {
    const user = await createUser();
    // One failure from each address: no address reaches its own limit.
    for (let i = 0; i < GLOBAL_PER_ACCOUNT; i++) {
      expect((await attempt(user.email, "wrong-password", `10.4.0.${i + 1}`)).status, `failure ${i + 1}`).toBe(400);
    }
    const response = await attempt(user.email, TEST_PASSWORD, "10.4.1.1");
    expect(response.status).toBe(429);
    expect(cookieOf(response, "backline_session")).toBeNull();
  });

  it("an administrator cannot be locked out for everyone by failures from one foreign address", async () => {
    useTestSettings(); // The default limits: 5 failures per account and address.
    try {
      for (let i = 0; i < 6; i++) await attempt(admin.email, "wrong-password", "203.0.113.9");
      // The guessing address is shut out, even with the right password; the administrator elsewhere is not.
      expect((await attempt(admin.email, DEMO_PASSWORD, "203.0.113.9")).status).toBe(429);
      const response = await attempt(admin.email, DEMO_PASSWORD, "10.5.0.1");
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe("/admin/dashboard");
    } finally {
      useTestSettings(SMALL_LIMITS);
    }
  });
});

// ---------------------------------------------------------------- 9. register enumeration

describe("9. /register does not tell whether an address has an account", () => {
  async function outbox(): Promise<Array<{ to: string; subject: string; text: string }>> {
    await deliverQueuedMail();
    const files = await fs.readdir(outboxDir()).catch(() => [] as string[]);
    return Promise.all(files.map(async (f) => JSON.parse(await fs.readFile(`${outboxDir()}/${f}`, "utf8"))));
  }

  async function mailTo(address: string, before: number, timeoutMs = 3000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mails = (await outbox()).filter((m) => m.to === address);
      if (mails.length > before || Date.now() > deadline) return mails;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const register = (email: string) =>
    post("/register", {
      fields: { name: "Rae", lastName: "Register", email, password: "a-good-password", passwordConfirmation: "a-good-password", terms: "on" },
    });

  /** What the visitor sees: status, Location, the cookies set, and the flash message (its address blanked). */
  async function visible(response: Response, email: string) {
    const flashCookie = cookieOf(response, "backline_flash");
    const { flash } = flashCookie ? await readFlash(new Request(server.url, { headers: { Cookie: flashCookie } })) : { flash: null };
    // The banner on the page the redirect leads to.
    const page = flashCookie ? await (await get(response.headers.get("location") ?? "/login", undefined, { Cookie: flashCookie })).text() : "";
    return {
      status: response.status,
      location: response.headers.get("location"),
      cookies: response.headers
        .getSetCookie()
        .map((c) => c.split("=")[0])
        .sort(),
      flash: flash && { ...flash, message: flash.message.replaceAll(email, "<email>") },
      bannerShown: !!flash && page.includes(flash.message),
    };
  }

  it("an address that has an account answers exactly like a new one, creates nothing, and mails the owner", async () => {
    const owner = await createUser({ name: "Olga", lastName: "Owner" });
    const ownerRow = async () => (await db().select().from(users).where(eq(users.id, owner.id)))[0];
    const before = await ownerRow();

    const freshEmail = uniqueEmail("fresh");
    const fresh = await visible(await register(freshEmail), freshEmail);
    expect(fresh.status).toBe(302);
    expect(await findUserByEmail(freshEmail)).toBeDefined();

    const mailsBefore = (await outbox()).filter((m) => m.to === owner.email).length;
    const usersBefore = await count(users);
    const taken = await visible(await register(owner.email), owner.email);
    expect(taken).toEqual(fresh);
    expect(taken.bannerShown).toBe(true);
    expect(await count(users)).toBe(usersBefore);
    expect(await count(users, sql`lower(${users.email}) = ${owner.email.toLowerCase()}`)).toBe(1);
    expect(await ownerRow()).toEqual(before);

    // The owner learns that someone tried to register with their address.
    const mails = await mailTo(owner.email, mailsBefore);
    expect(mails.length).toBe(mailsBefore + 1);
  });
});

// ---------------------------------------------------------------- 10. the legal gate on the API

describe("10. the API is closed to a user who has not agreed to the required documents", () => {
  const API = (user: User) => ["/api/config", `/api/members/${user.id}/notifications`, `/api/members/profile/logged-user/${user.id}`];

  async function expectGate(user: User, cookie: string, status: 403 | 200) {
    for (const path of API(user)) {
      const response = await get(path, cookie, { Accept: "application/json" });
      expect(response.status, path).toBe(status);
      const body = await response.json();
      if (status === 403) expect(body, path).toMatchObject({ message: LEGAL_AGREEMENT_REQUIRED });
    }
  }

  async function agree(cookie: string, documentIds: number[]) {
    const response = await post("/login", {
      cookie,
      fields: [["intent", "agree"], ["redirect", ""], ...documentIds.map((id): [string, string] => ["documentId", String(id)])],
    });
    expect(response.status).toBe(302);
  }

  it("the demo member who never agreed gets 403 JSON, then 200 after agreeing", async () => {
    const cookie = await sessionCookieFor(newcomer.id);
    await writesNothing(() => expectGate(newcomer, cookie, 403));
    const docs = await db().select({ id: legalDocuments.id }).from(legalDocuments).where(eq(legalDocuments.published, true));
    await agree(
      cookie,
      docs.map((d) => d.id),
    );
    await expectGate(newcomer, cookie, 200);
  });

  it("a member who agreed before is gated again by a newly published required document", async () => {
    const user = await createSignedMember("Gina");
    const cookie = await sessionCookieFor(user.id);
    await expectGate(user, cookie, 200);
    const [doc] = await db()
      .insert(legalDocuments)
      .values({ name: "Cookie Policy", slug: "cookie-policy", content: "<p>Cookies</p>", version: 1, required: true, published: true })
      .returning();
    try {
      await expectGate(user, cookie, 403);
      await agree(cookie, [doc!.id]);
      await expectGate(user, cookie, 200);
    } finally {
      // Everyone else in this file has not agreed to it: take it down again.
      await db().update(legalDocuments).set({ published: false }).where(eq(legalDocuments.id, doc!.id));
    }
  });
});

// ---------------------------------------------------------------- 11. single-fetch 404s

describe("11. single-fetch 404s say Not Found", () => {
  it("GET /member/{other}/dashboard.data answers 404 with statusText Not Found", async () => {
    const cookie = await sessionCookieFor(member.id);
    const response = await get(`/member/${newcomer.id}/dashboard.data`, cookie);
    expect(response.status).toBe(404);
    const decoded = await decodeViaTurboStream(response.body!, globalThis);
    await decoded.done;
    const errors = Object.values(decoded.value as Record<string, { error?: { status: number; statusText: string } }>)
      .map((entry) => entry?.error)
      .filter(Boolean);
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error).toMatchObject({ status: 404, statusText: "Not Found" });
  });
});
