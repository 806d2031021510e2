import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { releases, songs } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { sessionCookieFor } from "../helpers/requests";

useTestDatabase();

/**
 * The release pages' cost through the real request handler (see page-statements.test.ts): the lists are
 * one statement whatever their length; a release's pages a fixed number whatever its track count.
 */
describe("catalogue pages: statements per request", () => {
  let server: AppServer;
  let member: { id: number; cookie: string };
  let admin: { cookie: string };
  let draftId: number;
  let songId: number;

  beforeAll(async () => {
    await seedDemoData();
    const demoMember = (await findUserByEmail("member@example.com"))!;
    member = { id: demoMember.id, cookie: await sessionCookieFor(demoMember.id) };
    admin = { cookie: await sessionCookieFor((await findUserByEmail("admin@example.com"))!.id) };
    draftId = (await db().select({ id: releases.id }).from(releases).where(eq(releases.slug, "winter-platforms")))[0]!.id;
    songId = (await db().select({ id: songs.id }).from(songs).where(eq(songs.isrc, "USBL12600001")))[0]!.id;
    server = await startAppServer();
  });

  afterAll(() => server?.close());

  async function warm(path: string, cookie: string) {
    await server.statementsOf(path, { headers: { Cookie: cookie } });
    return server.statementsOf(path, { headers: { Cookie: cookie } });
  }

  it.each([
    // session (1), layout (2), the list with its total (1)
    ["member releases", () => `/member/${member.id}/releases`, () => member.cookie, 4],
    ["member releases, search and status filter", () => `/member/${member.id}/releases?q=late&status=in_distribution&page=1`, () => member.cookie, 4],
    // session (1), bell, What's new (1), the list (1)
    ["admin releases", () => "/admin/releases", () => admin.cookie, 3],
    ["admin releases, search", () => "/admin/releases?q=196589&status=draft", () => admin.cookie, 3],
    // session and layout (3); release and tracks (2); rights (0 for the owner); preflight: writers and credits (2),
    // UPC and ISRC uniqueness (one each when the release has codes; the draft has none); history (1); other songs (1);
    // the tracks' splits (1)
    ["member release editor (7 tracks, no codes yet)", () => `/member/${member.id}/release-profile/${draftId}`, () => member.cookie, 10],
    ["member release status", () => `/member/${member.id}/releases/midnight-owls/winter-platforms`, () => member.cookie, 8],
    ["member release status, a release with UPC and ISRCs", () => `/member/${member.id}/releases/midnight-owls/late-trains`, () => member.cookie, 10],
    // ... and its delivery packages (1) and the tracks' splits (1)
    ["admin release review", () => `/admin/release-profile/${draftId}`, () => admin.cookie, 9],
    // session and layout (3); release and tracks (2); the tracks' writers and credits (2); rights (0 for the owner)
    ["member release page (4 tracks)", () => `/member/${member.id}/release-page/midnight-owls/late-trains`, () => member.cookie, 7],
    // session (1), bell, What's new (1); release and tracks (2); people (2)
    ["admin release page", () => "/admin/release-page/midnight-owls/late-trains", () => admin.cookie, 6],
    // the distribution flow's first step: session and layout (3); artists, drafts (1 each), reference options (cached)
    ["distribution flow, first step", () => `/member/${member.id}/digital-distribution/start`, () => member.cookie, 6],
    // session and layout (3); the list with its total (1)
    ["member songs", () => `/member/${member.id}/songs?q=late`, () => member.cookie, 4],
    ["admin songs", () => "/admin/songs", () => admin.cookie, 3],
    // session and layout (3); song, writers, credits, its releases (4); rights (0 for the owner); options (cached);
    // the split sheet: versions, history, parties (3); the credits from completed projects (1)
    ["member song profile", () => `/member/${member.id}/song-profile/${songId}`, () => member.cookie, 11],
    // a step of a draft: as the editor (9)
    [
      "distribution flow, a step of the 7-track draft",
      () => `/member/${member.id}/digital-distribution/start?release=${draftId}&step=tracks`,
      () => member.cookie,
      9,
    ],
  ])("%s stays within its statement budget", async (_name, path, cookie, budget) => {
    const { status, count, sql } = await warm(path(), cookie());
    expect(status, sql.join("\n")).toBeLessThan(400);
    expect(count, sql.join("\n")).toBeLessThanOrEqual(budget);
  });
});
