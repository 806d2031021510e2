/**
 * Song credit invitations end to end on the server: the invitation goes through a real SMTP listener, and
 * the mailed link is followed through the invite routes' loader and action: a tampered link, a newcomer who
 * creates the account on the page, an existing member who accepts, someone else's account, and a decline.
 */
import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { notifications, profiles, songCredits, type User } from "~/db/schema";
import { seedDemoData } from "~/db/seed.server";
import { findUserByEmail } from "~/modules/accounts/accounts.server";
import { findSong, type SongDetail } from "~/modules/catalog/catalog.server";
import { inviteCredit, pendingCreditTasks } from "~/modules/catalog/credits/credits.server";
import { createSong } from "~/modules/catalog/songs/song-editor.server";
import { SongDetailsSchema } from "~/modules/catalog/songs/song-schemas";
import { action as featuredAction, loader as featuredLoader } from "~/routes/song-featured-artist-invite.$id";
import { action as producerAction, loader as producerLoader } from "~/routes/song-producer-invite.$id";
import { createUser, TEST_PASSWORD, uniqueEmail } from "../helpers/factories";
import { useTestDatabase } from "../helpers/database";
import { contextFor, requestAs, sessionCookieFor } from "../helpers/requests";
import { useSmtpListener } from "../helpers/smtp";

useTestDatabase();
const smtp = useSmtpListener();

type LoaderResult = { data: Record<string, unknown> & { kind: string; mode?: string; message?: string }; init: { status?: number } | null };

let mia: User;
let paul: User;
let song: SongDetail;

beforeAll(async () => {
  await seedDemoData();
  mia = (await findUserByEmail("member@example.com"))!;
  paul = (await findUserByEmail("producer@example.com"))!;
  const [artist] = await db().select({ id: profiles.id }).from(profiles).where(eq(profiles.username, "midnight-owls"));
  const created = await createSong(mia, artist!.id, SongDetailsSchema.parse({ title: "Credit Lines" }));
  song = (await findSong(created.id))!;
});

const routes = {
  "/song-producer-invite": { loader: producerLoader, action: producerAction },
  "/song-featured-artist-invite": { loader: featuredLoader, action: featuredAction },
};

function routeOf(path: string) {
  const base = new URL(path, "http://x").pathname.split("/").slice(0, 2).join("/") as keyof typeof routes;
  return { ...routes[base], id: new URL(path, "http://x").pathname.split("/")[2]! };
}

async function open(path: string, cookie: string | null = null) {
  const { loader, id } = routeOf(path);
  const request = requestAs(cookie, path);
  return (await loader({ request, params: { id }, context: await contextFor(request) } as never)) as unknown as LoaderResult;
}

async function submit(path: string, cookie: string | null, fields: Record<string, string>) {
  const { action, id } = routeOf(path);
  const request = new Request(`http://localhost:3999${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
  });
  return (await action({ request, params: { id }, context: await contextFor(request) } as never)) as unknown;
}

async function invite(email: string, role: "producer" | "featured_artist") {
  await inviteCredit(mia, song, role, email);
  const mail = await smtp.next(email);
  expect(mail.subject).toBe(`Mia Member credited you on “Credit Lines” on Backline`);
  expect(mail.links).toHaveLength(1);
  const url = new URL(mail.links[0]!);
  return `${url.pathname}${url.search}`;
}

const creditOf = async (path: string) =>
  (
    await db()
      .select()
      .from(songCredits)
      .where(eq(songCredits.id, routeOf(path).id))
  )[0]!;

describe("credit invitations", () => {
  it("answers 'Invalid signature.' to a tampered or role-swapped link", async () => {
    const path = await invite(uniqueEmail("tamper"), "producer");
    const tampered = await open(path.replace(/signature=([0-9a-f])/, (_m, c) => `signature=${c === "0" ? "1" : "0"}`));
    expect(tampered.init?.status).toBe(403);
    expect(tampered.data).toMatchObject({ kind: "refused", message: "Invalid signature." });
    const swapped = await open(path.replace("/song-producer-invite/", "/song-featured-artist-invite/"));
    expect(swapped.data.kind).toBe("refused");
  });

  it("lets a newcomer create the account on the page; the credit is accepted and verified", async () => {
    const email = uniqueEmail("newcomer");
    const path = await invite(email, "producer");
    expect((await open(path)).data).toMatchObject({ kind: "invite", mode: "register", invite: { email, roleLabel: "Producer", songTitle: "Credit Lines" } });
    const response = (await submit(path, null, {
      intent: "register",
      name: "Nia",
      lastName: "Newcomer",
      email,
      password: TEST_PASSWORD,
      passwordConfirmation: TEST_PASSWORD,
      terms: "on",
    })) as Response;
    expect(response.status).toBe(302);
    const user = (await findUserByEmail(email))!;
    expect(user.emailVerifiedAt).not.toBeNull();
    expect(await creditOf(path)).toMatchObject({ status: "accepted", userId: user.id });
    expect((await creditOf(path)).verifiedAt).not.toBeNull();
    // The link is spent.
    expect((await open(path)).data).toMatchObject({ kind: "refused", message: "This invitation was accepted already." });
  });

  it("lets the invited member accept; another account is told to switch and cannot accept", async () => {
    const path = await invite(paul.email, "featured_artist");
    const other = await createUser({ name: "Otto", lastName: "Other" });
    const otherCookie = await sessionCookieFor(other.id);
    expect((await open(path, otherCookie)).data).toMatchObject({ mode: "mismatch" });
    const refused = (await submit(path, otherCookie, { intent: "accept" })) as { init: { status: number } };
    expect(refused.init.status).toBe(403);
    expect((await creditOf(path)).status).toBe("pending");

    expect((await open(path)).data).toMatchObject({ mode: "login" });
    const paulCookie = await sessionCookieFor(paul.id);
    expect((await open(path, paulCookie)).data).toMatchObject({ mode: "accept" });
    const accepted = (await submit(path, paulCookie, { intent: "accept" })) as Response;
    expect(accepted.status).toBe(302);
    expect(await creditOf(path)).toMatchObject({ status: "accepted", userId: paul.id });
    // The same person cannot be invited twice in the same role.
    await expect(inviteCredit(mia, song, "featured_artist", paul.email)).rejects.toMatchObject({ status: 409, field: "email" });
  });

  it("tells an invited member in the app, lists it on their dashboard with its link and names them on the song until they answer", async () => {
    const before = await db().select().from(notifications).where(eq(notifications.userId, paul.id));
    const path = await invite(paul.email, "producer");
    const id = routeOf(path).id;
    const added = (await db().select().from(notifications).where(eq(notifications.userId, paul.id))).filter((n) => !before.some((b) => b.id === n.id));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ type: "SongCreditInvited" });
    expect(added[0]!.data).toMatchObject({
      message: "Mia Member would like to credit you as producer on “Credit Lines” by Mia and the Midnight Owls. Accept or decline it.",
      route_name: "member-dashboard",
      route_hash: "credit-invitations",
    });
    // The song's editor sees Paul's name on the pending invitation, not only the address.
    const credit = (await findSong(song.id))!.credits.find((c) => c.id === id)!;
    expect(credit.invitee).toMatchObject({ id: paul.id, name: "Paul", lastName: "Producer" });
    // Paul's dashboard task opens the same (signed) invitation page, where he may accept.
    const tasks = await pendingCreditTasks(paul);
    const task = tasks.find((t) => t.id === id)!;
    expect(task).toMatchObject({ role: "producer", songTitle: "Credit Lines", inviterName: "Mia Member" });
    expect((await open(task.href, await sessionCookieFor(paul.id))).data).toMatchObject({ kind: "invite", mode: "accept" });
    // Nobody else's dashboard lists it, and an unverified address gets no task.
    expect((await pendingCreditTasks(mia)).some((t) => t.id === id)).toBe(false);
    expect(await pendingCreditTasks({ ...paul, emailVerifiedAt: null })).toEqual([]);
    // Answered, it leaves the dashboard.
    await submit(task.href, await sessionCookieFor(paul.id), { intent: "decline" });
    expect((await pendingCreditTasks(paul)).some((t) => t.id === id)).toBe(false);
    expect((await findSong(song.id))!.credits.find((c) => c.id === id)!.invitee).toBeNull();
  });

  it("does not tell an address without an account in the app", async () => {
    const email = uniqueEmail("no-account");
    const before = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications);
    await invite(email, "producer");
    const after = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications);
    expect(after[0]!.n).toBe(before[0]!.n);
  });

  it("lets the invitee decline with the link alone; a declined link cannot be accepted", async () => {
    const path = await invite(uniqueEmail("decliner"), "producer");
    const declined = (await submit(path, null, { intent: "decline" })) as Response;
    expect(declined.status).toBe(302);
    expect((await creditOf(path)).status).toBe("declined");
    expect((await open(path)).data).toMatchObject({ kind: "refused", message: "This invitation was declined." });
  });
});
