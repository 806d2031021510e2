import { eq } from "drizzle-orm";
import Echo from "laravel-echo";
import Pusher from "pusher-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { countQueries, db } from "~/db/client.server";
import { appVersions, appVersionViews, users } from "~/db/schema";
import { resetBroadcasterForTests } from "~/modules/notifications/broadcaster.server";
import { createRealtimeServer, type RealtimeServer } from "../../../realtime/src/index";
import { useTestDatabase } from "../../../tests/helpers/database";
import { createUser } from "../../../tests/helpers/factories";
import { useTestSettings } from "../../../tests/setup/settings";
import { VERSION_PUBLISHED_EVENT, VERSIONS_CHANNEL } from "./versions";
import {
  invalidateLatestVersion,
  latestVersionFor,
  listVersions,
  publishVersion,
  recordView,
  sanitizeVersionHtml,
  VersionValidationError,
  whatsNewFor,
} from "./versions.server";

useTestDatabase();

// A real realtime server in this process; the app's broadcaster is pointed at it.
const REALTIME = { appId: "versions-test", key: "versions-key", secret: "versions-secret-0123456789" };
let realtime: RealtimeServer;

beforeAll(async () => {
  realtime = await createRealtimeServer({ ...REALTIME, host: "127.0.0.1", port: 0, shutdownSpreadMs: 0, log: () => {} });
  useTestSettings({
    REALTIME_APP_ID: REALTIME.appId,
    REALTIME_KEY: REALTIME.key,
    REALTIME_SECRET: REALTIME.secret,
    REALTIME_HOST: "127.0.0.1",
    REALTIME_PORT: String(realtime.port),
  });
  resetBroadcasterForTests();
});

afterAll(async () => {
  resetBroadcasterForTests();
  await realtime?.close();
});

/** Inserts a version directly (fixed publication time), bypassing publishVersion. */
async function insertVersion(name: string, publishedAt: Date, content = `<p>${name}</p>`) {
  const [row] = await db().insert(appVersions).values({ name, content, publishedAt }).returning();
  invalidateLatestVersion();
  return row!;
}

describe("sanitizeVersionHtml", () => {
  it("keeps headings, lists, links, emphasis and code", () => {
    const html =
      "<h2>New</h2><h3>Small</h3><p>Some <strong>bold</strong>, <em>italic</em> and <code>code</code>.</p>" +
      '<ul><li>one</li></ul><ol start="3"><li>two</li></ol><pre><code>npm start</code></pre>' +
      '<p><a href="https://example.com/notes" title="Notes">notes</a> <a href="/member/1/dashboard">here</a> <a href="mailto:a@example.com">mail</a></p>';
    expect(sanitizeVersionHtml(html)).toBe(html);
  });

  it("strips scripts, styles, event handlers, dangerous URLs and unknown tags", () => {
    const html =
      '<script>alert(1)</script><style>p{}</style><h2 onclick="alert(2)" style="color:red" class="x">Title</h2>' +
      '<img src="x" onerror="alert(3)"><iframe src="https://evil.example"></iframe>' +
      '<a href="javascript:alert(4)" onmouseover="alert(5)">bad</a><a href="//evil.example/x">proto-relative</a>' +
      '<a href="data:text/html;base64,PHNjcmlwdD4=">data</a><svg><script>alert(6)</script></svg>' +
      '<form action="/x"><input name="a"></form><div><span>kept text</span></div>';
    const clean = sanitizeVersionHtml(html);
    expect(clean).not.toMatch(/script|style=|onclick|onerror|onmouseover|<img|<iframe|<svg|<form|<input|javascript:|data:|evil|alert|class=/i);
    expect(clean).toContain("<h2>Title</h2>");
    expect(clean).toContain("<a>bad</a>");
    expect(clean).toContain("kept text");
  });

  it("opens target links safely and drops a rel it did not add", () => {
    expect(sanitizeVersionHtml('<a href="https://a.example" target="top" rel="opener">x</a>')).toBe(
      '<a href="https://a.example" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeVersionHtml('<a href="https://a.example" rel="opener">x</a>')).toBe('<a href="https://a.example">x</a>');
  });
});

describe("publishVersion", () => {
  it("stores the sanitised content and counts the publisher as having seen it", async () => {
    const admin = await createUser({ acctType: 2, roleId: 1 });
    const version = await publishVersion({
      name: "  2.0   beta ",
      content: '<h2>Hi</h2><script>steal()</script><p onclick="x()">Body</p>',
      publishedBy: admin.id,
    });
    expect(version.name).toBe("2.0 beta");
    expect(version.content).toBe("<h2>Hi</h2><p>Body</p>");
    const [stored] = await db().select().from(appVersions).where(eq(appVersions.id, version.id));
    expect(stored!.content).toBe("<h2>Hi</h2><p>Body</p>");
    expect(stored!.publishedBy).toBe(admin.id);
    expect((await latestVersionFor(admin.id))!.seen).toBe(true);
  });

  it("refuses a name outside 1-80 characters and content with nothing readable left", async () => {
    const admin = await createUser({ acctType: 2 });
    const attempt = (name: string, content: string) => publishVersion({ name, content, publishedBy: admin.id }).catch((e: unknown) => e);

    const blank = await attempt("   ", "<p>x</p>");
    expect(blank).toBeInstanceOf(VersionValidationError);
    expect((blank as VersionValidationError).fieldErrors.name).toEqual(["Enter a version name."]);

    const long = await attempt("x".repeat(81), "<p>x</p>");
    expect((long as VersionValidationError).fieldErrors.name?.[0]).toMatch(/at most 80/);
    await expect(publishVersion({ name: "x".repeat(80), content: "<p>ok</p>", publishedBy: admin.id })).resolves.toMatchObject({
      name: "x".repeat(80),
    });

    const onlyScript = await attempt("3.0", "<script>alert(1)</script><img src=x onerror=alert(1)>");
    expect((onlyScript as VersionValidationError).fieldErrors.content?.[0]).toMatch(/Nothing readable/);
    const empty = await attempt("3.0", "  ");
    expect((empty as VersionValidationError).fieldErrors.content).toEqual(["Describe what is new."]);
    expect(await db().select().from(appVersions).where(eq(appVersions.name, "3.0"))).toHaveLength(0);
  });

  it("announces { id, name } on the public app-versions channel, skipping the sender's socket", async () => {
    // The browser's stack: laravel-echo (broadcaster reverb) on pusher-js, listening with the leading dot.
    const connect = () =>
      new Echo({
        broadcaster: "reverb",
        key: REALTIME.key,
        wsHost: "127.0.0.1",
        wsPort: realtime.port,
        forceTLS: false,
        enabledTransports: ["ws"],
        disableStats: true,
        Pusher,
      });
    const listener = connect();
    const sender = connect();
    try {
      const received: { listener: unknown[]; sender: unknown[] } = { listener: [], sender: [] };
      const subscribe = (echo: ReturnType<typeof connect>, into: unknown[]) =>
        new Promise<void>((resolve) => {
          const channel = echo.channel(VERSIONS_CHANNEL);
          channel.listen(`.${VERSION_PUBLISHED_EVENT}`, (payload: unknown) => into.push(payload));
          channel.subscribed(() => resolve());
        });
      await Promise.all([subscribe(listener, received.listener), subscribe(sender, received.sender)]);
      const waitFor = async (list: unknown[], length: number) => {
        for (let i = 0; i < 200 && list.length < length; i++) await new Promise((r) => setTimeout(r, 25));
      };

      const admin = await createUser({ acctType: 2 });
      const first = await publishVersion({
        name: "4.0",
        content: "<p>Secret-free notes</p>",
        publishedBy: admin.id,
        socketId: sender.socketId(),
      });
      await waitFor(received.listener, 1);
      expect(received.listener).toEqual([{ id: first.id, name: "4.0" }]);

      // Events reach one connection in order: once the sender has the second one, it would have had the first.
      const second = await publishVersion({ name: "4.1", content: "<p>More</p>", publishedBy: admin.id });
      await waitFor(received.sender, 1);
      expect(received.sender).toEqual([{ id: second.id, name: "4.1" }]);
    } finally {
      listener.disconnect();
      sender.disconnect();
    }
  });

  it("still stores the version when the realtime server cannot be reached", async () => {
    useTestSettings({ REALTIME_HOST: "127.0.0.1", REALTIME_PORT: "1" });
    resetBroadcasterForTests();
    const warn = console.error;
    console.error = () => {};
    try {
      const admin = await createUser({ acctType: 2 });
      const version = await publishVersion({ name: "offline", content: "<p>x</p>", publishedBy: admin.id });
      expect((await latestVersionFor(admin.id))!.id).toBe(version.id);
    } finally {
      console.error = warn;
      useTestSettings({
        REALTIME_APP_ID: REALTIME.appId,
        REALTIME_KEY: REALTIME.key,
        REALTIME_SECRET: REALTIME.secret,
        REALTIME_HOST: "127.0.0.1",
        REALTIME_PORT: String(realtime.port),
      });
      resetBroadcasterForTests();
    }
  });
});

describe("latest version, views and the admin list", () => {
  it("picks the newest by publication time, says whether each user has seen it; the version is cached, the check is one query", async () => {
    await db().delete(appVersions);
    invalidateLatestVersion();
    const member = await createUser();
    const other = await createUser();
    expect(await latestVersionFor(member.id)).toBeNull();
    expect(await whatsNewFor(member.id)).toBeNull();

    const newest = await insertVersion("5.1", new Date("2030-02-01T00:00:00Z"), "<p>new</p><script>x()</script>");
    // Inserted later (higher id) but published earlier: not the latest.
    await insertVersion("5.0", new Date("2030-01-01T00:00:00Z"));

    // The first reader loads the version (and caches it), later ones only check what this user has seen.
    expect((await countQueries(() => latestVersionFor(member.id))).count).toBe(2);
    const { result, count } = await countQueries(() => latestVersionFor(member.id));
    expect(count).toBe(1);
    // Served sanitised even when a row was written some other way.
    expect(result).toEqual({ id: newest.id, name: "5.1", content: "<p>new</p>", seen: false });

    expect(await recordView(member.id, newest.id)).toBe(true);
    expect(await whatsNewFor(member.id)).toEqual({ version: { id: newest.id, name: "5.1", content: "<p>new</p>" }, seen: true });
    expect((await latestVersionFor(other.id))!.seen).toBe(false);
  });

  it("recordView is idempotent and false for an unknown version", async () => {
    const member = await createUser();
    const version = await insertVersion("6.0", new Date("2031-01-01T00:00:00Z"));
    expect(await recordView(member.id, version.id)).toBe(true);
    const [first] = await db().select().from(appVersionViews).where(eq(appVersionViews.userId, member.id));
    expect(await recordView(member.id, version.id)).toBe(true);
    const rows = await db().select().from(appVersionViews).where(eq(appVersionViews.userId, member.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.viewedAt.getTime()).toBe(first!.viewedAt.getTime());

    expect(await recordView(member.id, 999_999)).toBe(false);
    expect(await recordView(member.id, 0)).toBe(false);
    expect(await recordView(member.id, 2 ** 40)).toBe(false);
    expect(await db().select().from(appVersionViews).where(eq(appVersionViews.versionId, 999_999))).toHaveLength(0);
  });

  it("lists versions newest first with their publisher and how many users saw each, in two queries", async () => {
    await db().delete(appVersions);
    invalidateLatestVersion();
    const admin = await createUser({ name: "Ada", lastName: "Admin", acctType: 2 });
    const [a, b, c] = await Promise.all([createUser(), createUser(), createUser()]);
    const older = await insertVersion("7.0", new Date("2032-01-01T00:00:00Z"));
    const newer = await insertVersion("7.1", new Date("2032-02-01T00:00:00Z"));
    await db().update(appVersions).set({ publishedBy: admin.id }).where(eq(appVersions.id, newer.id));
    for (const user of [a, b, c]) await recordView(user!.id, older.id);
    await recordView(a!.id, newer.id);

    const { result, count } = await countQueries(() => listVersions());
    expect(count).toBe(2);
    expect(result.total).toBe(2);
    expect(result.versions.map((v) => [v.name, v.seenCount, v.publishedBy])).toEqual([
      ["7.1", 1, "Ada Admin"],
      ["7.0", 3, null],
    ]);
    expect(result.versions[0]!.publishedAt).toBe("2032-02-01T00:00:00.000Z");

    const page2 = await listVersions({ page: 2, pageSize: 1 });
    expect(page2).toMatchObject({ page: 2, pageCount: 2, total: 2 });
    expect(page2.versions.map((v) => [v.name, v.seenCount])).toEqual([["7.0", 3]]);
    expect((await listVersions({ page: 9 })).versions).toEqual([]);

    // A deleted publisher leaves the version (published_by set null).
    await db().delete(users).where(eq(users.id, admin.id));
    expect((await listVersions()).versions[0]!.publishedBy).toBeNull();
  });
});
