import crypto from "node:crypto";
import { test as base, expect, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { actionLink, waitForMail } from "./outbox";

export { expect };

type Pattern = RegExp | string;

/** Collects console errors and uncaught page errors; the test fails on any that it did not allow. */
export interface BrowserErrors {
  /** Expect (and allow) browser errors matching these patterns in this test. */
  allow(...patterns: Pattern[]): void;
  /** The browser's "Failed to load resource ... status of N" for the given statuses (pages answered 4xx on purpose). */
  allowStatus(...statuses: number[]): void;
  /** Also watch a context the test created itself. */
  watch(context: BrowserContext): void;
  readonly seen: string[];
}

export interface FreshUser {
  name: string;
  lastName: string;
  email: string;
  password: string;
}

export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${Date.now().toString(36)}-${crypto.randomBytes(3).toString("hex")}@example.test`;
}

export function newUserData(prefix = "user"): FreshUser {
  return { name: "Test", lastName: "User", email: uniqueEmail(prefix), password: `pw-${crypto.randomBytes(6).toString("hex")}` };
}

/**
 * Registers a user through the register form's POST (as a browser without JavaScript would), unverified.
 * The app allows 20 registrations and 20 reset requests per IP and hour: the suite uses about 13 and 8.
 */
export async function registerUser(request: APIRequestContext, prefix = "user"): Promise<FreshUser> {
  const user = newUserData(prefix);
  const response = await request.post("/register", {
    form: {
      name: user.name,
      lastName: user.lastName,
      email: user.email,
      password: user.password,
      passwordConfirmation: user.password,
      terms: "on",
      website_url: "",
    },
    maxRedirects: 0,
  });
  expect(response.status(), `register ${user.email}`).toBe(302);
  expect(response.headers()["location"]).toBe("/login");
  return user;
}

/** A fresh, verified member who has agreed to the legal documents: safe to change or lock out. */
export async function createVerifiedUser(request: APIRequestContext, prefix = "user"): Promise<FreshUser> {
  const user = await registerUser(request, prefix);
  const mail = await waitForMail(user.email, { subject: /Verify your email/ });
  const response = await request.get(actionLink(mail), { maxRedirects: 0 });
  expect(response.status(), "verification link").toBe(302);
  expect(response.headers()["location"]).toBe("/login");
  return user;
}

/** Page helpers that know whether JavaScript is on (and so whether to wait for hydration). */
export class App {
  constructor(
    readonly page: Page,
    readonly js: boolean,
  ) {}

  /** With JavaScript, waits until React has hydrated the page (its form, or else its header, has React props). */
  async hydrated(page: Page = this.page) {
    if (!this.js) return;
    await page.waitForFunction(() => {
      const el = document.querySelector("main form") ?? document.querySelector("header");
      return Boolean(el && Object.keys(el).some((k) => k.startsWith("__reactProps$")));
    });
  }

  async goto(path: string, page: Page = this.page) {
    const response = await page.goto(path);
    await this.hydrated(page);
    return response;
  }

  /** Logs in through the form; the caller asserts where it lands. */
  async logIn(email: string, password: string, options: { redirect?: string; page?: Page } = {}) {
    const page = options.page ?? this.page;
    await this.goto(options.redirect === undefined ? "/login" : `/login?${new URLSearchParams({ redirect: options.redirect })}`, page);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(password);
    await page.getByRole("button", { name: "Log in" }).click();
  }

  /** Logs in and waits until the browser has left the login page (or been sent to the agreement list). */
  async logInAndWait(email: string, password: string, options: { redirect?: string; page?: Page } = {}) {
    const page = options.page ?? this.page;
    await this.logIn(email, password, options);
    await page.waitForURL((url) => url.pathname !== "/login" || url.searchParams.has("redirect"));
  }

  /**
   * Logs in without the form (a POST as a no-JavaScript browser would send), for tests about something else.
   * The context's cookie jar receives the session. Returns where the app redirected.
   */
  async logInQuickly(email: string, password: string, options: { redirect?: string; page?: Page } = {}) {
    const page = options.page ?? this.page;
    const response = await page.request.post("/login", {
      form: { email, password, redirect: options.redirect ?? "" },
      maxRedirects: 0,
    });
    expect(response.status(), `log in ${email}`).toBe(302);
    return response.headers()["location"]!;
  }

  /**
   * Drops the session to sign in as someone else: first leaves the app's page, whose live-updates client
   * would otherwise go on asking /broadcasting/auth with no session (a 401 in the console), then clears the cookies.
   */
  async dropSession(page: Page = this.page) {
    await page.goto("about:blank");
    await page.context().clearCookies();
  }

  async sessionCookie(context: BrowserContext = this.page.context()) {
    return (await context.cookies()).find((c) => c.name === "backline_session");
  }
}

/**
 * Ignored in every test: the app has no favicon yet, so the browser's automatic /favicon.ico request
 * answers 404 (reported to the lead; remove this once the app serves an icon).
 */
const IGNORED = [/status of 404 \(Not Found\) \(http:\/\/[^)]+\/favicon\.ico\)$/];

/**
 * Browsers send Origin with every write, and the app refuses a write that carries a session but no proof of
 * its origin (decision 012). Playwright's API request contexts send none: the suite's own ones (`request`,
 * `page.request`) send the app's origin, as a page of the app would, unless a test gives its own. (Setting it
 * for the whole browser would also stamp it on cross-site requests, which Chromium then refuses.)
 */
export function sendAppOrigin(api: APIRequestContext): APIRequestContext {
  const origin = process.env.E2E_BASE_URL!;
  for (const method of ["fetch", "post", "put", "patch", "delete"] as const) {
    const send = api[method].bind(api) as (url: unknown, options?: { headers?: Record<string, string> }) => unknown;
    (api as unknown as Record<string, unknown>)[method] = (url: unknown, options: { headers?: Record<string, string> } = {}) =>
      send(url, { ...options, headers: { Origin: origin, ...options.headers } });
  }
  return api;
}

export const test = base.extend<{ browserErrors: BrowserErrors; app: App }>({
  request: async ({ request }, use) => {
    await use(sendAppOrigin(request));
  },
  context: async ({ context }, use) => {
    sendAppOrigin(context.request);
    await use(context);
  },
  browserErrors: [
    async ({ context }, use, testInfo) => {
      const seen: string[] = [];
      const allowed: Pattern[] = [];
      const watch = (ctx: BrowserContext) => {
        ctx.on("console", (message) => {
          if (message.type() !== "error") return;
          const where = message.location().url;
          seen.push(`console.error: ${message.text()}${where ? ` (${where})` : ""}`);
        });
        ctx.on("weberror", (error) => seen.push(`page error: ${error.error().message}`));
      };
      watch(context);
      await use({
        allow: (...patterns) => allowed.push(...patterns),
        allowStatus: (...statuses) =>
          allowed.push(...statuses.map((s) => new RegExp(`Failed to load resource: the server responded with a status of ${s}\\b`))),
        watch,
        seen,
      });
      const unexpected = seen.filter(
        (line) => !IGNORED.some((p) => p.test(line)) && !allowed.some((p) => (typeof p === "string" ? line.includes(p) : p.test(line))),
      );
      if (testInfo.status === testInfo.expectedStatus) {
        expect(unexpected, "unexpected console errors or page errors in the browser").toEqual([]);
      }
    },
    { auto: true },
  ],
  app: async ({ page, javaScriptEnabled }, use) => {
    await use(new App(page, javaScriptEnabled !== false));
  },
});
