/**
 * Band invitations end to end on the server: the owner's form sends the invitation through a real SMTP
 * listener, and the mailed link is followed through the /band-invite/{id} route's loader and action, as
 * an existing member (log in, then accept) and as a newcomer (create the account on the invite page).
 */
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { artistMembers, legalDocuments, notifications, profiles, type Profile, type User } from "~/db/schema";
import { attemptLogin, findUserByEmail } from "~/modules/accounts/accounts.server";
import { hasAgreedToAllDocuments, signDocuments } from "~/modules/legal/legal.server";
import { loadDashboardProfiles } from "~/modules/members/member-area.server";
import { handleBandIntent } from "~/modules/profiles/band-actions.server";
import { revokeInvite } from "~/modules/profiles/band.server";
import { signedUrl } from "~/modules/security/signed-url.server";
import { action as inviteAction, loader as inviteLoader } from "~/routes/band-invite.$id";
import { action as loginAction } from "~/routes/login";
import { createUser, TEST_PASSWORD, uniqueEmail } from "../helpers/factories";
import { useTestDatabase } from "../helpers/database";
import { contextFor, requestAs, sessionCookieFor } from "../helpers/requests";
import { useSmtpListener } from "../helpers/smtp";

useTestDatabase();
const smtp = useSmtpListener();

type LoaderResult = { data: Record<string, unknown> & { kind: string; mode?: string; message?: string }; init: { status?: number } | null };
type ActionResult = {
  data: { intent: string; result: { status?: string; error?: Record<string, string[] | null>; initialValue?: Record<string, unknown> } };
  init: { status?: number };
};

let owner: User;
let artist: Profile;
let documentId: number;

beforeAll(async () => {
  const [doc] = await db()
    .insert(legalDocuments)
    .values({ name: "Terms of Service", slug: "terms-of-service", content: "<p>Terms</p>", published: true, required: true })
    .returning();
  documentId = doc!.id;
  owner = await createUser({ name: "Olive", lastName: "Owner" });
  await signDocuments({ userId: owner.id, documentIds: [documentId], ip: "127.0.0.1", userAgent: "test" });
  const [created] = await db()
    .insert(profiles)
    .values({ type: "artist", ownerId: owner.id, name: "The Night Owls", username: "night-owls", status: "published" })
    .returning();
  artist = created!;
  await db().insert(artistMembers).values({ artistId: artist.id, userId: owner.id, role: "owner", canEdit: true });
});

/** The path and signed query of a mailed link (the app is at APP_URL, http://localhost:3999). */
function pathOf(link: string) {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

function idOf(path: string) {
  return new URL(path, "http://x").pathname.split("/")[2]!;
}

async function open(path: string, cookie: string | null = null) {
  const request = requestAs(cookie, path);
  return (await inviteLoader({ request, params: { id: idOf(path) }, context: await contextFor(request) } as never)) as unknown as LoaderResult;
}

function postRequest(path: string, cookie: string | null, fields: Record<string, string>) {
  return new Request(`http://localhost:3999${path}`, {
    method: "POST",
    body: new URLSearchParams(fields),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(cookie ? { Cookie: cookie } : {}) },
  });
}

async function submit(path: string, cookie: string | null, fields: Record<string, string>) {
  const request = postRequest(path, cookie, fields);
  return (await inviteAction({ request, params: { id: idOf(path) }, context: await contextFor(request) } as never)) as unknown;
}

function cookieNamed(response: Response, name: string) {
  const header = response.headers.getSetCookie().find((c) => c.startsWith(`${name}=`));
  return header?.split(";")[0] ?? null;
}

/** The owner sends an invitation through the band form of the artist's owner page. */
async function inviteFromOwnerPage(email: string, canEdit: boolean) {
  const formData = new FormData();
  formData.set("intent", "band-invite");
  formData.set("email", email);
  if (canEdit) formData.set("canEdit", "on");
  const redirectTo = `/member/${owner.id}/artist-profile/${artist.id}`;
  const response = await handleBandIntent({ intent: "band-invite", formData, actor: owner, profile: artist, rights: "owner", redirectTo });
  expect(response).toBeInstanceOf(Response);
  expect((response as Response).status).toBe(302);
  expect((response as Response).headers.get("Location")).toBe(redirectTo);
  const mail = await smtp.next(email);
  expect(mail.subject).toBe("Olive Owner invited you to join The Night Owls on Backline");
  expect(mail.links).toHaveLength(1);
  return pathOf(mail.links[0]!);
}

async function membership(userId: number) {
  const [row] = await db()
    .select()
    .from(artistMembers)
    .where(and(eq(artistMembers.artistId, artist.id), eq(artistMembers.userId, userId)));
  return row;
}

describe("an invitation to an existing account", () => {
  it("is mailed, leads to login and back, and is accepted by the invited account only", async () => {
    const invitee = await createUser({ name: "Ivy", lastName: "Invitee" });
    await signDocuments({ userId: invitee.id, documentIds: [documentId], ip: "127.0.0.1", userAgent: "test" });
    const path = await inviteFromOwnerPage(invitee.email, true);

    // A visitor: the invitation, and a login link that comes back to this very link.
    const anonymous = await open(path);
    expect(anonymous.init?.status ?? 200).toBe(200);
    expect(anonymous.data).toMatchObject({
      kind: "invite",
      mode: "login",
      invite: { email: invitee.email, canEdit: true, artistName: "The Night Owls", inviterName: "Olive Owner" },
    });
    const loginHref = anonymous.data.loginHref as string;
    expect(loginHref).toBe(`/login?${new URLSearchParams({ redirect: path })}`);

    // Logging in through the login form's action returns to the link with its signature.
    const loginRequest = postRequest(loginHref, null, { email: invitee.email, password: TEST_PASSWORD, redirect: path });
    const login = (await loginAction({ request: loginRequest, params: {}, context: await contextFor(loginRequest) } as never)) as Response;
    expect(login.status).toBe(302);
    expect(login.headers.get("Location")).toBe(path);
    const cookie = cookieNamed(login, "backline_session")!;
    expect((await open(path, cookie)).data.mode).toBe("accept");

    // Someone else logged in is told whom the invitation is for, and cannot accept it.
    const other = await createUser();
    const otherCookie = await sessionCookieFor(other.id);
    const mismatch = await open(path, otherCookie);
    expect(mismatch.data).toMatchObject({ mode: "mismatch", currentEmail: other.email });
    const refused = (await submit(path, otherCookie, { intent: "accept" })) as ActionResult;
    expect(refused.init.status).toBe(403);
    expect(refused.data.result.error?.[""]).toEqual([`This invitation was sent to ${invitee.email}. Log in with that address to accept it.`]);
    expect(await membership(other.id)).toBeUndefined();
    const loggedOut = (await submit(path, otherCookie, { intent: "logout" })) as Response;
    expect(loggedOut.status).toBe(302);
    expect(loggedOut.headers.get("Location")).toBe(path);

    // The invited account accepts: into the band, with the rights of the invitation, the owner told.
    const accepted = (await submit(path, cookie, { intent: "accept" })) as Response;
    expect(accepted.status).toBe(302);
    expect(accepted.headers.get("Location")).toBe(`/member/${invitee.id}/artist-profile/${artist.id}`);
    expect(cookieNamed(accepted, "backline_flash")).not.toBeNull();
    expect(await membership(invitee.id)).toMatchObject({ role: "member", canEdit: true });
    expect((await loadDashboardProfiles(invitee.id)).artists).toEqual([{ id: artist.id, name: "The Night Owls", username: "night-owls", can_edit: true }]);
    const [notice] = await db().select().from(notifications).where(eq(notifications.userId, owner.id));
    expect(notice?.data).toMatchObject({ route_name: "member-artist-profile", resource_id: artist.id });

    // The link is used up.
    const again = await open(path, cookie);
    expect(again.init?.status).toBe(410);
    expect(again.data).toMatchObject({ kind: "refused", message: "This invitation has already been accepted." });
  });
});

describe("an invitation to a new address", () => {
  it("creates the account on the invite page, logs it in and joins the band", async () => {
    const email = uniqueEmail("newcomer");
    const path = await inviteFromOwnerPage(email, false);

    const page = await open(path);
    expect(page.data).toMatchObject({ kind: "invite", mode: "register", invite: { email, canEdit: false } });
    expect(page.data.documents).toEqual([{ id: documentId, name: "Terms of Service", slug: "terms-of-service" }]);

    // Bad input: errors beside the fields, values kept, never the password.
    const bad = (await submit(path, null, {
      intent: "register",
      name: "Nina",
      lastName: "",
      email,
      password: "a-good-password",
      passwordConfirmation: "another-password",
    })) as ActionResult;
    expect(bad.init.status).toBe(400);
    expect(bad.data.intent).toBe("register");
    expect(Object.keys(bad.data.result.error ?? {})).toEqual(expect.arrayContaining(["lastName", "passwordConfirmation", "terms"]));
    expect(bad.data.result.initialValue).toMatchObject({ name: "Nina" });
    expect(bad.data.result.initialValue).not.toHaveProperty("password");
    expect(await findUserByEmail(email)).toBeUndefined();

    const created = (await submit(path, null, {
      intent: "register",
      name: "Nina",
      lastName: "New",
      // Whatever the form says, the account gets the invited address.
      email: "someone-else@example.test",
      password: "a-good-password",
      passwordConfirmation: "a-good-password",
      terms: "on",
    })) as Response;
    expect(created.status).toBe(302);
    const user = (await findUserByEmail(email))!;
    expect(user).toMatchObject({ name: "Nina", lastName: "New" });
    expect(await findUserByEmail("someone-else@example.test")).toBeUndefined();
    // Without editing rights the artist's edit page is closed to them: they land on the artist's page.
    expect(created.headers.get("Location")).toBe(`/member/${user.id}/artists/night-owls`);
    expect(cookieNamed(created, "backline_session")).not.toBeNull();
    expect(cookieNamed(created, "backline_flash")).not.toBeNull();
    expect(await hasAgreedToAllDocuments(user.id)).toBe(true);
    expect(await attemptLogin({ email, password: "a-good-password", ip: "10.1.1.1" })).toMatchObject({ ok: true });
    expect(await membership(user.id)).toMatchObject({ role: "member", canEdit: false });
    expect((await loadDashboardProfiles(user.id)).artists.map((a) => a.id)).toEqual([artist.id]);

    // The same link cannot make a second account.
    const replay = (await submit(path, null, {
      intent: "register",
      name: "Nina",
      lastName: "Again",
      email,
      password: "a-good-password",
      passwordConfirmation: "a-good-password",
      terms: "on",
    })) as ActionResult;
    expect(replay.init.status).toBe(409);
    expect(replay.data.result.error?.[""]?.[0]).toMatch(/exists already/);
  });
});

describe("links that cannot be used", () => {
  it("answers 'Invalid signature.' to a tampered or re-dated link, and changes nothing", async () => {
    const invitee = await createUser();
    const path = await inviteFromOwnerPage(invitee.email, false);
    const cookie = await sessionCookieFor(invitee.id);
    const signature = new URL(path, "http://x").searchParams.get("signature")!;
    const tampered = path.replace(signature, `${signature.slice(0, -1)}${signature.endsWith("0") ? "1" : "0"}`);
    const redated = path.replace(/expires=\d+/, "expires=9999999999");

    for (const bad of [tampered, redated]) {
      const page = await open(bad, cookie);
      expect(page.init?.status).toBe(403);
      expect(page.data).toMatchObject({ kind: "refused", message: "Invalid signature." });
      const accept = (await submit(bad, cookie, { intent: "accept" })) as ActionResult;
      expect(accept.init.status).toBe(403);
      expect(accept.data.result.error?.[""]).toEqual(["Invalid signature."]);
    }
    const newcomer = uniqueEmail("tampered");
    const newPath = await inviteFromOwnerPage(newcomer, false);
    const register = (await submit(newPath.replace(/expires=\d+/, "expires=9999999999"), null, {
      intent: "register",
      name: "T",
      lastName: "T",
      email: newcomer,
      password: "a-good-password",
      passwordConfirmation: "a-good-password",
      terms: "on",
    })) as ActionResult;
    expect(register.init.status).toBe(403);
    expect(register.data.result.error?.[""]).toEqual(["Invalid signature."]);
    expect(await findUserByEmail(newcomer)).toBeUndefined();
    expect(await membership(invitee.id)).toBeUndefined();

    // The genuine link still works afterwards.
    expect((await open(path, cookie)).data.mode).toBe("accept");
  });

  it("shows a clear page for a revoked invitation and for one that does not exist", async () => {
    const email = uniqueEmail("revoked");
    const path = await inviteFromOwnerPage(email, false);
    await revokeInvite(owner, artist, idOf(path));
    const revoked = await open(path);
    expect(revoked.init?.status).toBe(410);
    expect(revoked.data).toMatchObject({ kind: "refused", message: "This invitation was withdrawn by the band." });
    const register = (await submit(path, null, {
      intent: "register",
      name: "R",
      lastName: "R",
      email,
      password: "a-good-password",
      passwordConfirmation: "a-good-password",
      terms: "on",
    })) as ActionResult;
    expect(register.init.status).toBe(410);
    expect(await findUserByEmail(email)).toBeUndefined();

    const missing = await open(pathOf(signedUrl("/band-invite/3f0c1d2e-0000-4000-8000-000000000000", 60)));
    expect(missing.init?.status).toBe(404);
    expect(missing.data).toMatchObject({ kind: "refused", message: "This invitation does not exist or was removed." });
  });
});
