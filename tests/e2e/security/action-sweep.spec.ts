import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, request as requestFactory, test, type APIRequestContext } from "@playwright/test";
import { DEMO, DEMO_PASSWORD } from "../support/accounts";
import { PROFILE_TYPE_PATHS, type ProfileTypeKey } from "../support/profile-type-paths";
import { createVerifiedUser, type FreshUser } from "../support/test";

/**
 * A sweep over every route module in app/routes/ that exports an `action`: each is sent bodies it cannot
 * read (no Content-Type, JSON, text, multipart without a boundary or cut short) and forms full of NUL bytes
 * or with a huge sparse list index, as an anonymous visitor, as a member and as an administrator. None may
 * answer 5xx: a body the app cannot use is the client's mistake (4xx), never a crash.
 *
 * The routes are found on disk when the suite loads, so a new action route is swept without editing this
 * file. The member and the administrator are fresh accounts of this spec (registered, verified, the second
 * given admin access by the demo admin), and the profiles the paths point at are theirs, so a post that
 * changes anything changes only this spec's data; the demo accounts only log in (the demo admin once, to
 * grant access, in a session of its own that it ends).
 *
 * API contexts only, no browser: this spec uses Playwright's own `test` (the suite's adds the browser-error
 * watch, which needs a browser context). Every request carries the app's Origin, as a page of the app would,
 * so the cross-site guard lets it through to the action.
 */

const BASE_URL = process.env.E2E_BASE_URL ?? "http://localhost:3210";
const ORIGIN = new URL(BASE_URL).origin;
const SESSION_COOKIE = "backline_session";
/** One request may take this long before it counts as a failure (the sparse-list case can make a route walk a huge array). */
const REQUEST_TIMEOUT = 20_000;

// ---------------------------------------------------------------- the routes, from the file system

const ROUTES_DIR = fileURLToPath(new URL("../../../app/routes/", import.meta.url));
const MODULE_EXTENSIONS = [".ts", ".tsx", ".js", ".jsx"];
/** `export async function action`, `export function action`, `export const action`, or a re-export named `action`. */
const EXPORTS_ACTION = /export\s+(?:async\s+)?function\s+action\b|export\s+(?:const|let|var)\s+action\b|export\s*\{[^}]*\b(?:\w+\s+as\s+)?action\s*(?:,|\})/;

type Segment = { kind: "static"; value: string } | { kind: "param"; name: string } | { kind: "splat" };

interface ActionRoute {
  /** As in app/routes/, e.g. "member.$memberId.profile.tsx" (a folder route: "folder/route.tsx"). */
  file: string;
  segments: Segment[];
  index: boolean;
  /** The URL pattern, e.g. "/member/:memberId/profile" ("?index" for index routes). */
  pattern: string;
}

/** The flat-routes route id's segments as @react-router/fs-routes reads them (dots separate, `[...]` escapes, `(...)` optional). */
function routeSegments(routeId: string): Array<{ segment: string; raw: string }> {
  const out: Array<{ segment: string; raw: string }> = [];
  let segment = "";
  let raw = "";
  let state: "normal" | "escape" | "optional" | "optionalEscape" = "normal";
  const push = () => {
    if (segment) out.push({ segment, raw });
    segment = "";
    raw = "";
  };
  for (let i = 0; i < routeId.length; i++) {
    const char = routeId[i]!;
    const last = i === routeId.length - 1;
    if (state === "normal" || state === "optional") {
      if (state === "normal" && (char === "." || char === "/")) {
        push();
        continue;
      }
      raw += char;
      if (char === "[") state = state === "normal" ? "escape" : "optionalEscape";
      else if (state === "normal" && char === "(") state = "optional";
      else if (state === "optional" && char === ")") {
        segment += "?";
        state = "normal";
      } else if (!segment && char === "$") segment += last ? "*" : ":";
      else segment += char;
    } else {
      raw += char;
      if (char === "]") state = state === "escape" ? "normal" : "optional";
      else segment += char;
    }
  }
  push();
  return out;
}

/** The URL of a flat route id: `_index` is the index, a leading `_` is a pathless layout, a trailing `_` is not in the URL. */
function toActionRoute(file: string, routeId: string): ActionRoute {
  const index = routeId.endsWith("_index");
  let parts = routeSegments(routeId);
  if (index) parts = parts.slice(0, -1);
  const segments: Segment[] = [];
  for (let { segment, raw } of parts) {
    if (segment.startsWith("_") && raw.startsWith("_")) continue;
    if (segment.endsWith("_") && raw.endsWith("_")) segment = segment.slice(0, -1);
    // An optional segment may be left out: the shortest URL that matches.
    if (segment.endsWith("?")) continue;
    if (segment === "*") segments.push({ kind: "splat" });
    else if (segment.startsWith(":")) segments.push({ kind: "param", name: segment.slice(1) });
    else segments.push({ kind: "static", value: segment });
  }
  const pattern = "/" + segments.map((s) => (s.kind === "static" ? s.value : s.kind === "param" ? `:${s.name}` : "*")).join("/") + (index ? "?index" : "");
  return { file, segments, index, pattern };
}

function discoverActionRoutes(): ActionRoute[] {
  const routes: ActionRoute[] = [];
  for (const entry of fs.readdirSync(ROUTES_DIR, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    let file: string;
    let routeId: string;
    if (entry.isDirectory()) {
      const module = ["route", "index"]
        .flatMap((base) => MODULE_EXTENSIONS.map((ext) => base + ext))
        .find((name) => fs.existsSync(path.join(ROUTES_DIR, entry.name, name)));
      if (!module) continue;
      file = `${entry.name}/${module}`;
      routeId = entry.name;
    } else {
      const ext = MODULE_EXTENSIONS.find((e) => entry.name.endsWith(e));
      if (!ext || /\.(test|spec)\.[jt]sx?$/.test(entry.name)) continue;
      file = entry.name;
      routeId = entry.name.slice(0, -ext.length);
    }
    const source = fs.readFileSync(path.join(ROUTES_DIR, file), "utf8");
    if (EXPORTS_ACTION.test(source)) routes.push(toActionRoute(file, routeId));
  }
  // Anything that ends the session last (the sweep logs in again when a session ends anyway).
  return routes.sort((a, b) => Number(/logout/.test(a.pattern)) - Number(/logout/.test(b.pattern)) || a.pattern.localeCompare(b.pattern));
}

const ACTION_ROUTES = discoverActionRoutes();
const isAdminRoute = (route: ActionRoute) => route.segments[0]?.kind === "static" && route.segments[0].value === "admin";
const isMemberAreaRoute = (route: ActionRoute) => route.segments[0]?.kind === "static" && route.segments[0].value === "member";

// ---------------------------------------------------------------- filling the parameters

interface SweepData {
  memberId: number;
  /** The sweep member's own profiles (falls back to "1" for a type it has none of). */
  profiles: Partial<Record<ProfileTypeKey, { id: number; username: string }>>;
}

const TYPES = Object.keys(PROFILE_TYPE_PATHS) as ProfileTypeKey[];
const typeByPage = (segment: string) => TYPES.find((t) => PROFILE_TYPE_PATHS[t].memberPage === segment || PROFILE_TYPE_PATHS[t].adminPage === segment);
const typeByDirectory = (segment: string) => TYPES.find((t) => PROFILE_TYPE_PATHS[t].directory === segment);

/** Fills a route's parameters: member ids with the sweep member, profile ids and usernames with its profiles, other ids with 1, splats with x. */
function urlFor(route: ActionRoute, data: SweepData): string {
  const parts: string[] = [];
  let previous = "";
  for (const segment of route.segments) {
    if (segment.kind === "static") {
      parts.push(encodeURIComponent(segment.value));
      previous = segment.value;
      continue;
    }
    if (segment.kind === "splat") {
      parts.push("x");
      continue;
    }
    const { name } = segment;
    let value = "1";
    if (name === "memberId" || name === "userId" || (name === "id" && (previous === "member" || previous === "members"))) {
      value = String(data.memberId);
    } else if (name === "id" && typeByPage(previous)) {
      value = String(data.profiles[typeByPage(previous)!]?.id ?? 1);
    } else if (name === "username") {
      const type = typeByDirectory(previous);
      value = (type && data.profiles[type]?.username) || "x";
    }
    parts.push(encodeURIComponent(value));
  }
  return "/" + parts.join("/") + (route.index ? "?index" : "");
}

// ---------------------------------------------------------------- the bodies

/** Every field name the app's forms are likely to read, each holding a NUL byte. */
const NUL_FORM = [
  "intent=details",
  "name=a%00b",
  "lastName=a%00b",
  "username=a%00b",
  "q=%00",
  "subject=%00",
  "message=%00",
  "email=a%00@x.test",
  "password=%00",
  "passwordConfirmation=%00",
  "bio=%00",
  "location=%00",
  "title=%00",
  "description=%00",
  "redirect=%2F%00",
].join("&");

const BOUNDARY = "----backline-sweep";

interface SweepCase {
  name: string;
  /** Sent by Playwright's request context, except `raw` (Playwright always adds a Content-Type to a body). */
  contentType?: string;
  body: string;
  raw?: boolean;
}

/** Sent to a route all at once. */
const CASES: SweepCase[] = [
  { name: "no Content-Type", body: "intent=details&name=a", raw: true },
  { name: "application/json", contentType: "application/json", body: '{"a":1}' },
  { name: "text/plain", contentType: "text/plain", body: "intent=details&name=a" },
  {
    name: "multipart without a boundary",
    contentType: "multipart/form-data",
    body: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="intent"\r\n\r\ndetails\r\n--${BOUNDARY}--\r\n`,
  },
  {
    name: "truncated multipart",
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body:
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="intent"\r\n\r\ndetails\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="name"\r\n\r\nhalf a val`,
  },
  { name: "urlencoded with NUL bytes", contentType: "application/x-www-form-urlencoded", body: NUL_FORM },
];

/**
 * Sent after all the others, one request at a time: a route that builds Conform's arrays from this without
 * the cap (form-body.server.ts MAX_LIST_INDEX) makes a 100-million-slot array and can take the server's
 * whole heap (it has: out of memory, the server gone), so it must not take the other cases down with it,
 * and the report must name the one request that did.
 */
const HUGE_INDEX_CASE: SweepCase = {
  name: "urlencoded with a huge list index",
  contentType: "application/x-www-form-urlencoded",
  body: "intent=details&links[99999999].url=https://x.example/",
};

// ---------------------------------------------------------------- who sends them

interface Identity {
  label: "anonymous" | "member" | "admin";
  context: APIRequestContext;
  credentials?: { email: string; password: string };
  /** Set when a response may have ended the session: log in again before the next route. */
  sessionMayHaveEnded: boolean;
}

/** Shared by the sweeps of one run: once the server stops answering, nothing more is sent. */
interface Run {
  outcomes: Outcome[];
  /** The request after which the server stopped answering. */
  serverDownAfter?: string;
}

interface Outcome {
  who: Identity["label"];
  file: string;
  url: string;
  case: string;
  status: number | null;
  error?: string;
  /** Not sent: the server had stopped answering. */
  skipped?: boolean;
}

const newContext = () => requestFactory.newContext({ baseURL: BASE_URL, extraHTTPHeaders: { Origin: ORIGIN } });

async function logIn(email: string, password: string): Promise<{ context: APIRequestContext; location: string }> {
  const context = await newContext();
  const response = await context.post("/login", { form: { email, password, redirect: "" }, maxRedirects: 0 });
  expect(response.status(), `log in ${email}`).toBe(302);
  return { context, location: response.headers()["location"] ?? "" };
}

async function hasSession(context: APIRequestContext) {
  return (await context.storageState()).cookies.some((c) => c.name === SESSION_COOKIE && c.value !== "");
}

/** Logs in again when the last route may have ended the session (logout, a new session on login, ...). */
async function keepSignedIn(identity: Identity) {
  if (!identity.credentials) return;
  if (!identity.sessionMayHaveEnded && (await hasSession(identity.context))) return;
  await identity.context.dispose();
  identity.context = (await logIn(identity.credentials.email, identity.credentials.password)).context;
  identity.sessionMayHaveEnded = false;
}

/** Whether /healthz answers within `waitMs` (a server busy with one request answers nothing else meanwhile). */
async function serverAnswers(waitMs: number): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  do {
    const ok = await new Promise<boolean>((resolve) => {
      const req = http.get(new URL("/healthz", BASE_URL), (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      });
      req.setTimeout(2_000, () => req.destroy());
      req.on("error", () => resolve(false));
    });
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 500));
  } while (Date.now() < deadline);
  return false;
}

/** A POST without any Content-Type (with the context's cookies and the app's Origin), over plain node:http. */
async function rawPost(identity: Identity, url: string, body: string): Promise<number> {
  const cookies = (await identity.context.storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
  return new Promise<number>((resolve, reject) => {
    const req = http.request(
      new URL(url, BASE_URL),
      {
        method: "POST",
        headers: { Origin: ORIGIN, "Content-Length": Buffer.byteLength(body), ...(cookies ? { Cookie: cookies } : {}) },
      },
      (res) => {
        if ([res.headers["set-cookie"] ?? []].flat().some((c) => c.startsWith(`${SESSION_COOKIE}=`))) identity.sessionMayHaveEnded = true;
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      },
    );
    req.setTimeout(REQUEST_TIMEOUT, () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

async function post(identity: Identity, route: ActionRoute, url: string, sweepCase: SweepCase): Promise<Outcome> {
  const base = { who: identity.label, file: route.file, url, case: sweepCase.name };
  try {
    if (sweepCase.raw) return { ...base, status: await rawPost(identity, url, sweepCase.body) };
    const response = await identity.context.post(url, {
      headers: { "Content-Type": sweepCase.contentType! },
      data: sweepCase.body,
      maxRedirects: 0,
      timeout: REQUEST_TIMEOUT,
      failOnStatusCode: false,
    });
    return { ...base, status: response.status() };
  } catch (error) {
    return { ...base, status: null, error: (error as Error).message.split("\n")[0] };
  }
}

const describeOutcome = (o: Outcome) =>
  `${o.who}: ${o.case === "GET" ? "GET" : "POST"} ${o.url} (${o.case === "GET" ? "" : `app/routes/${o.file} with `}${o.case})`;

/** Records the answers and soft-asserts each; after a request without an answer, checks the server is still there. */
async function check(run: Run, results: Outcome[]) {
  for (const outcome of results) {
    run.outcomes.push(outcome);
    if (outcome.status === null) expect.soft(outcome.error, `${describeOutcome(outcome)}: no answer`).toBeUndefined();
    else expect.soft(outcome.status, `${describeOutcome(outcome)} answered ${outcome.status}`).toBeLessThan(500);
  }
  const silent = results.filter((o) => o.status === null);
  if (silent.length && !run.serverDownAfter && !(await serverAnswers(30_000))) {
    run.serverDownAfter = silent.map(describeOutcome).join(" | ");
  }
}

function skip(run: Run, identity: Identity, route: ActionRoute, url: string, cases: SweepCase[]) {
  for (const c of cases) run.outcomes.push({ who: identity.label, file: route.file, url, case: c.name, status: null, skipped: true });
}

/** Sweeps the routes one after another, the cases of one route at once. */
async function sweep(run: Run, identity: Identity, routes: ActionRoute[], data: SweepData, cases: SweepCase[]) {
  for (const route of routes) {
    const url = urlFor(route, data);
    if (run.serverDownAfter) {
      skip(run, identity, route, url, cases);
      continue;
    }
    await keepSignedIn(identity);
    await test.step(`${identity.label}: POST ${url} (${route.file})${cases.length === 1 ? ` with ${cases[0]!.name}` : ""}`, async () => {
      await check(run, await Promise.all(cases.map((c) => post(identity, route, url, c))));
    });
  }
  if (!run.serverDownAfter) await keepSignedIn(identity);
}

async function getSweep(run: Run, identity: Identity, paths: string[]) {
  await test.step(`${identity.label}: GET with NUL and control characters`, async () => {
    for (const url of paths) {
      const base = { who: identity.label, file: "", url, case: "GET" };
      try {
        const response = await identity.context.get(url, { maxRedirects: 0, timeout: REQUEST_TIMEOUT, failOnStatusCode: false });
        await check(run, [{ ...base, status: response.status() }]);
      } catch (error) {
        await check(run, [{ ...base, status: null, error: (error as Error).message.split("\n")[0] }]);
      }
    }
  });
}

/** The failing answers as a table, attached to the report and printed. */
async function report(run: Run) {
  const { outcomes } = run;
  const sent = outcomes.filter((o) => !o.skipped);
  const failures = sent.filter((o) => o.status === null || o.status >= 500);
  const lines = failures.map(
    (o) =>
      `${o.who.padEnd(9)} ${String(o.status ?? "none").padEnd(4)} ${o.url}  [${o.case}]  ${o.file ? `app/routes/${o.file}` : ""}${o.error ? `  (${o.error})` : ""}`,
  );
  // The answers per sender, e.g. "member 400×90 415×60 302×12": a sweep that only met redirects to /login swept nothing.
  const tally = (["anonymous", "member", "admin"] as const).map((who) => {
    const counts = new Map<string, number>();
    for (const o of sent.filter((x) => x.who === who)) counts.set(String(o.status ?? "none"), (counts.get(String(o.status ?? "none")) ?? 0) + 1);
    return `${who} ${[...counts]
      .sort()
      .map(([status, n]) => `${status}×${n}`)
      .join(" ")}`;
  });
  let text = `${failures.length} of ${sent.length} requests answered 5xx or not at all (${tally.join("; ")})\n${lines.join("\n")}\n`;
  if (run.serverDownAfter) {
    const skipped = outcomes.length - sent.length;
    text += `\nThe server stopped answering after: ${run.serverDownAfter}\n${skipped} requests were not sent after that.\n`;
  }
  await test.info().attach("5xx answers", { body: text, contentType: "text/plain" });
  console.log(`[action-sweep] ${failures.length || run.serverDownAfter ? text : text.split("\n")[0]}`);
}

const fresh = (prefix: string) => `${prefix}-${crypto.randomBytes(3).toString("hex")}`;

/** A fresh member with a draft profile of each type, and a fresh administrator (the demo admin grants the access). */
async function prepareAccounts(data: SweepData, contexts: APIRequestContext[]): Promise<{ member: Identity; admin: Identity }> {
  const guest = await newContext();
  contexts.push(guest);
  const memberUser: FreshUser = await createVerifiedUser(guest, "sweep-member");
  const adminUser: FreshUser = await createVerifiedUser(guest, "sweep-admin");

  const asMember = await logIn(memberUser.email, memberUser.password);
  data.memberId = Number(/^\/member\/(\d+)\//.exec(asMember.location)?.[1]);
  expect(data.memberId, `member area in ${asMember.location}`).toBeGreaterThan(0);
  const member: Identity = { label: "member", context: asMember.context, credentials: memberUser, sessionMayHaveEnded: false };
  for (const type of TYPES) {
    const { directory, label } = PROFILE_TYPE_PATHS[type];
    const username = fresh(`sw-${directory}`);
    const created = await member.context.post(`/member/${data.memberId}/${directory}?index`, {
      form: { intent: "create-profile", name: `Sweep ${label}`, username },
      maxRedirects: 0,
    });
    const id = Number(/\/(\d+)$/.exec(created.headers()["location"] ?? "")?.[1]);
    // Not fatal: the paths then use 1 for this type.
    if (created.status() === 302 && id) data.profiles[type] = { id, username };
    else console.log(`[action-sweep] could not create a ${label} profile (${created.status()}): its paths use id 1`);
  }

  // The second account becomes an administrator: the demo admin grants it, in a session of its own that it ends.
  const probe = await logIn(adminUser.email, adminUser.password);
  contexts.push(probe.context);
  const adminId = Number(/^\/member\/(\d+)\//.exec(probe.location)?.[1]);
  expect(adminId, `member area in ${probe.location}`).toBeGreaterThan(0);
  const demoAdmin = await logIn(DEMO.admin, DEMO_PASSWORD);
  contexts.push(demoAdmin.context);
  const granted = await demoAdmin.context.post(`/admin/member/${adminId}`, {
    form: { intent: "change-access", acctType: "2", roleId: "2" },
    maxRedirects: 0,
  });
  expect(granted.status(), "the demo admin grants admin access").toBe(302);
  await demoAdmin.context.post("/logout", { maxRedirects: 0 });
  const asAdmin = await logIn(adminUser.email, adminUser.password);
  expect(asAdmin.location, "the new administrator lands in the admin area").toMatch(/^\/admin\b/);
  const admin: Identity = { label: "admin", context: asAdmin.context, credentials: adminUser, sessionMayHaveEnded: false };
  return { member, admin };
}

// ---------------------------------------------------------------- the tests

test.describe("unreadable bodies and NUL bytes never make an action answer 5xx", () => {
  test("the sweep finds the action routes", () => {
    // A guard against a broken discovery (a moved folder, a changed export style) silently sweeping nothing.
    expect(ACTION_ROUTES.length, "action routes found in app/routes/").toBeGreaterThan(10);
    expect(ACTION_ROUTES.map((r) => r.pattern)).toEqual(expect.arrayContaining(["/login", "/logout", "/member/:memberId/profile"]));
  });

  /**
   * One test, so the huge-index phase can follow all the rest: each route is a step, each answer a soft
   * assertion naming the route and the case, and the attachment "5xx answers" lists them as a table.
   * Anonymous visitors sweep every route, the member every route outside /admin, the administrator every
   * route outside the member area (routes of neither area, such as /login or /api, with all three).
   */
  test("as an anonymous visitor, a member and an administrator", async () => {
    test.setTimeout(240_000);
    const run: Run = { outcomes: [] };
    const contexts: APIRequestContext[] = [];
    const data: SweepData = { memberId: 0, profiles: {} };
    const anonymous: Identity = { label: "anonymous", context: await newContext(), sessionMayHaveEnded: false };
    let member: Identity | undefined;
    let admin: Identity | undefined;
    try {
      await test.step("prepare a member with a profile of each type, and an administrator", async () => {
        ({ member, admin } = await prepareAccounts(data, contexts));
      });
      const [m, a] = [member!, admin!];
      const routesOf = new Map<Identity, ActionRoute[]>([
        [anonymous, ACTION_ROUTES],
        [m, ACTION_ROUTES.filter((r) => !isAdminRoute(r))],
        [a, ACTION_ROUTES.filter((r) => !isMemberAreaRoute(r))],
      ]);

      await getSweep(run, anonymous, ["/artists/%00", "/login?redirect=%00", "/login?redirect=%2F%00%01", "/%00", "/register?x=%7F"]);
      await getSweep(run, m, [`/member/${data.memberId}/artists?q=%00`, `/member/${data.memberId}/musicians?q=a%01b`, `/member/${data.memberId}/artists/%00`]);
      await getSweep(run, a, ["/admin/members?q=%00", "/admin/artists?q=%00", "/admin/musicians/profiles?q=%1F"]);

      // The three at once, each one route at a time with all its cases at once.
      await Promise.all([...routesOf].map(([identity, routes]) => sweep(run, identity, routes, data, CASES)));

      if (!run.serverDownAfter) {
        await test.step("the member and the administrator are still signed in (else routes were swept as a visitor)", async () => {
          for (const [identity, home] of [
            [m, `/member/${data.memberId}/dashboard`],
            [a, "/admin/dashboard"],
          ] as const) {
            const response = await identity.context.get(home, { maxRedirects: 0 });
            expect.soft(response.status(), `${identity.label} still opens ${home}`).toBe(200);
          }
        });
      }

      // Then the huge list index, one request at a time.
      for (const [identity, routes] of routesOf) await sweep(run, identity, routes, data, [HUGE_INDEX_CASE]);
      expect.soft(run.serverDownAfter, "the server stopped answering (out of memory?) after").toBeUndefined();
    } finally {
      await report(run);
      for (const context of [...contexts, anonymous.context, member?.context, admin?.context]) await context?.dispose().catch(() => {});
    }
  });
});
