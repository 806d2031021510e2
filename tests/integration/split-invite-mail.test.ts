/**
 * Split invitations end to end on the server: a proposal naming an address without an account mails a
 * signed link through a real SMTP listener, and the mailed link is followed over HTTP through the real app
 * (tests/helpers/app-server.ts): a tampered link is refused, a newcomer creates a verified account on the
 * page, is linked to the party and sees the whole sheet (and its PDF) while a stranger gets 404, and an
 * invitee declines from the link alone.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { notifications, profiles, splitEvents, splitParties, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { findSong, type SongDetail } from "~/modules/catalog/catalog.server";
import { createSong } from "~/modules/catalog/songs/song-editor.server";
import { SongDetailsSchema } from "~/modules/catalog/songs/song-schemas";
import { proposeSplit, withdrawSplit } from "~/modules/splits/splits.server";
import { startAppServer, type AppServer } from "../helpers/app-server";
import { useTestDatabase } from "../helpers/database";
import { createSignedMember, TEST_PASSWORD, uniqueEmail } from "../helpers/factories";
import { sessionCookieFor } from "../helpers/requests";
import { useSmtpListener } from "../helpers/smtp";

useTestDatabase();
const smtp = useSmtpListener();

const META = { ip: "127.0.0.1", userAgent: "vitest" };

let server: AppServer;
let mia: User;
let paul: User;

beforeAll(async () => {
  await seedDemoData();
  mia = (await findUserByEmail("member@example.com"))!;
  paul = (await findUserByEmail("producer@example.com"))!;
  server = await startAppServer();
});

afterAll(() => server?.close());

/** A song of Mia's artist page, one per test: a song has one open proposal at a time. */
async function newSong(title: string): Promise<SongDetail> {
  const [artist] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.username, "midnight-owls"));
  const created = await createSong(mia, artist!.id, SongDetailsSchema.parse({ title }));
  return (await findSong(created.id))!;
}

/** Mia proposes Mia 60 %, Paul 20 % and `email` 20 % from 2026-09-01; returns the mailed link (path and query) and the party's id. */
async function propose(song: SongDetail, email: string) {
  const { parties } = await proposeSplit(
    mia,
    song,
    {
      effectiveFrom: "2026-09-01",
      note: "",
      parties: [
        { email: mia.email, shareBps: 6_000 },
        { email: paul.email, shareBps: 2_000 },
        { email, shareBps: 2_000 },
      ],
      recoup: null,
    },
    META,
  );
  const mail = await smtp.next(email);
  expect(mail.subject).toBe(`Mia Member proposed you a 20.00% share of “${song.title}” on Backline`);
  expect(mail.text).toContain(`“${song.title}” by Mia and the Midnight Owls, from 2026-09-01: your share is 20.00%`);
  expect(mail.links).toHaveLength(1);
  const url = new URL(mail.links[0]!);
  expect(url.pathname).toBe("/share-split-proposals/create-account");
  const partyId = parties.find((p) => p.email === email)!.id;
  expect(url.searchParams.get("party")).toBe(partyId);
  return { path: `${url.pathname}${url.search}`, partyId };
}

function get(path: string, cookie?: string) {
  return fetch(`${server.url}${path}`, { redirect: "manual", headers: cookie ? { Cookie: cookie } : {} });
}

/** A form post as a browser sends it from one of our pages (with the Origin). */
function post(path: string, fields: Record<string, string>, cookie?: string) {
  return fetch(`${server.url}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { Origin: server.origin, "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
    body: new URLSearchParams(fields),
  });
}

/** A document's HTML without React's text separators (`Version <!-- -->1`). */
const textOf = (html: string) => html.replaceAll("<!-- -->", "");

/** The session cookie a response set (name=value). */
function sessionCookieOf(response: Response): string {
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("backline_session="));
  expect(cookie, "a session cookie").toBeTruthy();
  return cookie!.split(";")[0]!;
}

/** The messages of the member's notifications of a type. */
async function notificationsOf(userId: number, type: string): Promise<string[]> {
  const rows = await db()
    .select({ data: notifications.data })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.type, type)));
  return rows.map((r) => (r.data as { message: string }).message);
}

const partyRow = async (id: string) => (await db().select().from(splitParties).where(eq(splitParties.id, id)))[0]!;

describe("split invitations by email", () => {
  it("mails members nothing (they are notified) and refuses a tampered or re-pointed link with 'Invalid signature.'", async () => {
    const song = await newSong("Tampered Tracks");
    const email = uniqueEmail("split-tamper");
    const { path, partyId } = await propose(song, email);
    // Paul, a member, got a notification instead of a mail.
    expect(await notificationsOf(paul.id, "SplitProposed")).toContain(
      `Mia Member proposed a split of “Tampered Tracks”: your share is 20.00%. Accept or decline it.`,
    );

    const tampered = path.replace(/signature=([0-9a-f])/, (_m, c: string) => `signature=${c === "0" ? "1" : "0"}`);
    const refused = await get(tampered);
    expect(refused.status).toBe(403);
    expect(textOf(await refused.text())).toContain("Invalid signature.");
    // The signature covers the party: pointing the link at another party is refused too.
    const other = path.replace(partyId, "00000000-0000-4000-8000-000000000000");
    expect((await get(other)).status).toBe(403);
    // A tampered link declines nothing, and creates no account.
    expect((await post(tampered, { intent: "decline" })).status).toBe(403);
    const register = await post(tampered, {
      intent: "register",
      name: "Tia",
      lastName: "Tamper",
      email,
      password: TEST_PASSWORD,
      passwordConfirmation: TEST_PASSWORD,
      terms: "on",
    });
    expect(register.status).toBe(403);
    expect(await findUserByEmail(email)).toBeUndefined();
    expect((await partyRow(partyId)).status).toBe("pending");

    // A withdrawn proposal's link stops working.
    await withdrawSplit(mia, song, (await partyRow(partyId)).versionId, META);
    const withdrawn = await get(path);
    expect(withdrawn.status).toBe(404);
    expect(textOf(await withdrawn.text())).toContain("This split proposal does not exist or was withdrawn.");
  });

  it("lets a newcomer create a verified account from the link; the party is linked and sees the whole sheet and its PDF, a stranger gets 404", async () => {
    const song = await newSong("Newcomer Lines");
    const email = uniqueEmail("split-newcomer");
    const { path, partyId } = await propose(song, email);

    const page = await get(path);
    expect(page.status).toBe(200);
    const html = textOf(await page.text());
    expect(html).toContain("Create account and open the proposal");
    expect(html).toContain("Version 1 of the split sheet");
    expect(html).toContain("Paul Producer");
    expect(html).toContain(email);

    // Invalid fields: 400, nothing is created.
    const invalid = await post(path, {
      intent: "register",
      name: "",
      lastName: "Newcomer",
      email,
      password: TEST_PASSWORD,
      passwordConfirmation: "something else",
      terms: "on",
    });
    expect(invalid.status).toBe(400);
    expect(await findUserByEmail(email)).toBeUndefined();

    const created = await post(path, {
      intent: "register",
      name: "Nia",
      lastName: "Newcomer",
      email,
      password: TEST_PASSWORD,
      passwordConfirmation: TEST_PASSWORD,
      terms: "on",
    });
    expect(created.status).toBe(302);
    const user = (await findUserByEmail(email))!;
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(user.activatedAt).not.toBeNull();
    expect(created.headers.get("location")).toBe(`/member/${user.id}/song-profile/${song.id}#splits`);
    expect(await partyRow(partyId)).toMatchObject({ userId: user.id, name: "Nia Newcomer", status: "pending" });
    const cookie = sessionCookieOf(created);

    // The new member lands on the sheet: every party, their shares, and the answer waiting for them.
    const sheet = await get(`/member/${user.id}/song-profile/${song.id}`, cookie);
    expect(sheet.status).toBe(200);
    const sheetHtml = textOf(await sheet.text());
    for (const text of ["Newcomer Lines", "Mia Member", "Paul Producer", "Nia Newcomer", "60.00%", "20.00%", "Accept 20.00%", "Decline"])
      expect(sheetHtml).toContain(text);

    // The signed sheet (PDF) downloads for the party; the version id comes from the party row.
    const versionId = (await partyRow(partyId)).versionId;
    const pdf = await get(`/member/${user.id}/song-profile/${song.id}/split-sheet/${versionId}`, cookie);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe("%PDF-");

    // Nobody else sees it.
    const stranger = await createSignedMember("Stella");
    const strangerCookie = await sessionCookieFor(stranger.id);
    expect((await get(`/member/${stranger.id}/song-profile/${song.id}`, strangerCookie)).status).toBe(404);
    expect((await get(`/member/${stranger.id}/song-profile/${song.id}/split-sheet/${versionId}`, strangerCookie)).status).toBe(404);

    // The link now sends its (logged-in) addressee to the sheet, and asks a visitor to log in.
    const again = await get(path, cookie);
    expect(again.status).toBe(302);
    expect(again.headers.get("location")).toBe(`/member/${user.id}/song-profile/${song.id}#splits`);
    const visitor = await get(path);
    expect(visitor.status).toBe(200);
    expect(textOf(await visitor.text())).toContain("Log in to answer");

    // The party accepts on the sheet; the acceptance keeps its time and IP for the signed sheet.
    const accepted = await post(`/member/${user.id}/song-profile/${song.id}`, { intent: "split-accept", partyId }, cookie);
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("location")).toBe(`/member/${user.id}/song-profile/${song.id}#splits`);
    const party = await partyRow(partyId);
    expect(party.status).toBe("accepted");
    expect(party.answeredAt).not.toBeNull();
    expect(party.answeredIp).toBeTruthy();
    const answered = await get(path);
    expect(answered.status).toBe(410);
    expect(textOf(await answered.text())).toContain("This share was accepted already.");
  });

  it("lets the invitee decline with the link alone; the owner is told and the history says the share goes back", async () => {
    const song = await newSong("Declined Lines");
    const email = uniqueEmail("split-decliner");
    const { path, partyId } = await propose(song, email);

    const declined = await post(path, { intent: "decline" });
    expect(declined.status).toBe(302);
    expect(declined.headers.get("location")).toBe("/login");
    expect((await partyRow(partyId)).status).toBe("declined");
    expect(await findUserByEmail(email)).toBeUndefined();

    const events = await db()
      .select()
      .from(splitEvents)
      .where(and(eq(splitEvents.partyId, partyId), eq(splitEvents.kind, "declined")));
    expect(events.map((e) => e.message)).toEqual([`${email} declined 20.00% of version 1: that share goes back to the artist page's owner.`]);
    expect(await notificationsOf(mia.id, "SplitDeclined")).toContain(`${email} declined 20.00% of the split of “Declined Lines”.`);

    // The link is spent: it cannot be declined again nor used to create an account.
    const reopened = await get(path);
    expect(reopened.status).toBe(410);
    expect(textOf(await reopened.text())).toContain("This share was declined already.");
    expect((await post(path, { intent: "decline" })).status).toBe(409);
  });
});
