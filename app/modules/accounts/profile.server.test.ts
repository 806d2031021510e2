import { eq } from "drizzle-orm";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { sessions } from "~/db/schema";
import { imageKey, ImageUploadError } from "~/modules/images/images.server";
import { storage } from "~/modules/storage/storage.server";
import { sha256 } from "~/modules/security/hash.server";
import { loader as emailVerifyLoader } from "~/routes/email-verify.$id.$hash";
import { createUser, TEST_PASSWORD, uniqueEmail } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { useSmtpListener } from "../../../tests/helpers/smtp";
import { attemptLogin, findUserById, verifyEmail } from "./accounts.server";
import { verifyPassword } from "./password.server";
import { cancelEmailChange, changePassword, loadAccountDetails, ProfileError, removeAvatar, updateAvatar, updateNamesAndEmail } from "./profile.server";
import { getSession, startUserSession } from "./session.server";

useTestDatabase();
const smtp = useSmtpListener();

function verifyLink(link: string) {
  const url = new URL(link);
  const [, , id, token] = url.pathname.split("/");
  return { url: link, userId: Number(id), token: token! };
}

async function user(id: number) {
  return (await findUserById(id))!;
}

describe("names and email", () => {
  it("saves names; a new address is confirmed by a signed link to it before it replaces the old one", async () => {
    const member = await createUser({ name: "Old", lastName: "Name" });
    const newEmail = uniqueEmail("moved");

    const result = await updateNamesAndEmail(member.id, { name: "Nova", lastName: "Newname", email: ` ${newEmail} ` });
    expect(result).toEqual({ pendingEmail: newEmail });
    const pending = await user(member.id);
    expect(pending).toMatchObject({ name: "Nova", lastName: "Newname", email: member.email });
    expect(await loadAccountDetails(member.id)).toMatchObject({ email: member.email, pendingEmail: newEmail });

    // The old address is told; the new one gets the link.
    const notice = await smtp.next(member.email);
    expect(notice.text).toContain(newEmail);
    expect(notice.links.join(" ")).not.toMatch(/email-verify/);
    const mail = await smtp.next(newEmail);
    expect(mail.subject).toMatch(/Confirm your new email address/);
    const link = verifyLink(mail.links[0]!);
    expect(link.userId).toBe(member.id);
    const expires = Number(new URL(link.url).searchParams.get("expires"));
    expect(expires - Date.now() / 1000).toBeGreaterThan(24 * 3600 - 60);
    expect(expires - Date.now() / 1000).toBeLessThanOrEqual(24 * 3600);

    // Still the old address until the link is opened.
    expect(await attemptLogin({ email: newEmail, password: TEST_PASSWORD, ip: "10.1.0.1" })).toMatchObject({ ok: false });
    expect(await attemptLogin({ email: member.email, password: TEST_PASSWORD, ip: "10.1.0.1" })).toMatchObject({ ok: true });

    // A tampered link changes nothing.
    const tampered = link.url.replace(/signature=[0-9a-f]{4}/, "signature=0000");
    expect(await verifyEmail({ ...link, url: tampered })).toBe("invalid_signature");
    expect((await user(member.id)).email).toBe(member.email);

    expect(await verifyEmail(link)).toBe("email_changed");
    const changed = await user(member.id);
    expect(changed.email).toBe(newEmail);
    expect(changed.emailVerifiedAt!.getTime()).toBeGreaterThan(member.emailVerifiedAt!.getTime());
    expect(await loadAccountDetails(member.id)).toMatchObject({ email: newEmail, pendingEmail: null });
    expect(await attemptLogin({ email: newEmail, password: TEST_PASSWORD, ip: "10.1.0.1" })).toMatchObject({ ok: true });
    expect(await attemptLogin({ email: member.email, password: TEST_PASSWORD, ip: "10.1.0.1" })).toMatchObject({ ok: false });

    // Single use.
    expect(await verifyEmail(link)).toBe("invalid_link");
  });

  it("the verify page switches the address and answers 'Invalid signature.' (403) to a tampered link", async () => {
    const member = await createUser();
    const newEmail = uniqueEmail("page");
    await updateNamesAndEmail(member.id, { name: member.name, lastName: member.lastName, email: newEmail });
    const link = verifyLink((await smtp.next(newEmail)).links[0]!);
    const open = (url: string) =>
      emailVerifyLoader({
        request: new Request(url),
        params: { id: String(link.userId), hash: link.token },
        context: {},
      } as unknown as Parameters<typeof emailVerifyLoader>[0]);

    const refused = (await open(link.url.replace(/expires=\d+/, "expires=9999999999"))) as unknown as {
      data: { message: string };
      init: { status: number };
    };
    expect(refused.init.status).toBe(403);
    expect(refused.data.message).toBe("Invalid signature.");
    expect((await user(member.id)).email).toBe(member.email);

    const response = (await open(link.url)) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/login");
    expect((await user(member.id)).email).toBe(newEmail);
  });

  it("answers an address another account uses like a free one (no enumeration): its holder is told, no link goes out", async () => {
    const member = await createUser({ name: "Keep" });
    const other = await createUser();
    const result = await updateNamesAndEmail(member.id, { name: "Changed", lastName: "Changed", email: other.email.toUpperCase() });
    expect(result).toEqual({ pendingEmail: other.email.toUpperCase() });
    expect(await user(member.id)).toMatchObject({ name: "Changed", email: member.email });
    const told = await smtp.next(other.email);
    expect(told.subject).toBe("Someone tried to move another Backline account to your address");
    expect(told.links.join(" ")).not.toMatch(/email-verify/);
    // The account's own address hears of the request as for any other, with the cancel link.
    expect((await smtp.next(member.email)).links.join(" ")).toMatch(/\/email-change-cancel\//);
    await expect(smtp.next(other.email, 300)).rejects.toThrow(/No mail/);
  });

  it("refuses the link when another account took the address meanwhile", async () => {
    const member = await createUser();
    const wanted = uniqueEmail("contested");
    await updateNamesAndEmail(member.id, { name: member.name, lastName: member.lastName, email: wanted });
    const link = verifyLink((await smtp.next(wanted)).links[0]!);
    await createUser({ email: wanted.toUpperCase() });
    expect(await verifyEmail(link)).toBe("email_taken");
    expect((await user(member.id)).email).toBe(member.email);
  });

  it("saves a change of case at once, without a link", async () => {
    const member = await createUser();
    const result = await updateNamesAndEmail(member.id, { name: "A", lastName: "B", email: member.email.toUpperCase() });
    expect(result).toEqual({ pendingEmail: null });
    expect((await user(member.id)).email).toBe(member.email.toUpperCase());
    await expect(smtp.next(member.email, 300)).rejects.toThrow(/No mail/);
  });

  it("a newer request replaces the older link, and a cancelled change's link no longer works", async () => {
    const member = await createUser();
    const first = uniqueEmail("first");
    const second = uniqueEmail("second");
    await updateNamesAndEmail(member.id, { name: "A", lastName: "B", email: first });
    const firstLink = verifyLink((await smtp.next(first)).links[0]!);
    await updateNamesAndEmail(member.id, { name: "A", lastName: "B", email: second });
    const secondLink = verifyLink((await smtp.next(second)).links[0]!);
    expect((await loadAccountDetails(member.id))!.pendingEmail).toBe(second);
    expect(await verifyEmail(firstLink)).toBe("invalid_link");

    await cancelEmailChange(member.id);
    expect((await loadAccountDetails(member.id))!.pendingEmail).toBeNull();
    expect(await verifyEmail(secondLink)).toBe("invalid_link");
    expect((await user(member.id)).email).toBe(member.email);
  });

  it("limits how many confirmation links one account can send", async () => {
    const member = await createUser();
    for (let i = 0; i < 5; i++) {
      await updateNamesAndEmail(member.id, { name: "A", lastName: "B", email: uniqueEmail("spam") });
    }
    const error = await updateNamesAndEmail(member.id, { name: "A", lastName: "B", email: uniqueEmail("spam") }).catch((e) => e);
    expect(error).toBeInstanceOf(ProfileError);
    expect(error).toMatchObject({ field: "email", status: 429 });
  });
});

describe("password", () => {
  async function sessionFor(userId: number): Promise<string> {
    const response = await startUserSession(new Request("http://localhost/login"), { userId, ip: "10.2.0.1", redirectTo: "/" });
    const cookie = response.headers.get("Set-Cookie")!.split(";")[0]!;
    return (await getSession(new Request("http://localhost/", { headers: { Cookie: cookie } }))).id;
  }

  it("changes the password and ends every other session of the user, keeping the current one", async () => {
    const member = await createUser();
    const bystander = await createUser();
    const current = await sessionFor(member.id);
    await sessionFor(member.id);
    await sessionFor(member.id);
    await sessionFor(bystander.id);

    await changePassword(member.id, { currentPassword: TEST_PASSWORD, password: "a-brand-new-password" }, current);

    const left = await db().select().from(sessions).where(eq(sessions.userId, member.id));
    expect(left.map((s) => s.idHash)).toEqual([sha256(current)]);
    expect(await db().select().from(sessions).where(eq(sessions.userId, bystander.id))).toHaveLength(1);
    expect(await verifyPassword("a-brand-new-password", (await user(member.id)).passwordHash)).toBe(true);
  });

  it("a wrong current password is refused beside its field and changes nothing", async () => {
    const member = await createUser();
    const current = await sessionFor(member.id);
    await sessionFor(member.id);
    const before = (await user(member.id)).passwordHash;

    const error = await changePassword(member.id, { currentPassword: "not-my-password", password: "whatever-new" }, current).catch((e) => e);
    expect(error).toBeInstanceOf(ProfileError);
    expect(error).toMatchObject({ field: "currentPassword", message: "That is not your current password.", status: 400 });
    expect((await user(member.id)).passwordHash).toBe(before);
    expect(await db().select().from(sessions).where(eq(sessions.userId, member.id))).toHaveLength(2);
  });

  it("stops guessing after five wrong current passwords", async () => {
    const member = await createUser();
    const current = await sessionFor(member.id);
    for (let i = 0; i < 5; i++) {
      await expect(changePassword(member.id, { currentPassword: `guess-${i}`, password: "whatever-new" }, current)).rejects.toMatchObject({
        status: 400,
      });
    }
    await expect(changePassword(member.id, { currentPassword: TEST_PASSWORD, password: "whatever-new" }, current)).rejects.toMatchObject({
      field: "currentPassword",
      status: 429,
    });
  });
});

describe("avatar", () => {
  const png = (width = 300, height = 200) =>
    sharp({ create: { width, height, channels: 3, background: "#3b82f6" } })
      .png()
      .toBuffer();
  const file = async (bytes: Buffer | string, type = "image/png") =>
    new File([typeof bytes === "string" ? bytes : new Uint8Array(bytes)], "avatar.png", { type });
  /** Every variant still stored of the image `publicPath` names. */
  const variantsOf = (publicPath: string) => storage().list(`${imageKey(publicPath)!.replace(/[^/]+$/, "")}`);
  const isStored = (publicPath: string) => storage().exists(imageKey(publicPath)!);
  const allFiles = () => storage().list("images/");

  it("stores the new avatar, points the account at its 256x256 variant and deletes the old one", async () => {
    const member = await createUser();
    const first = await updateAvatar(member.id, await file(await png()));
    expect(first).toMatch(/^\/storage\/images\/avatar\/[0-9a-f]{32}\/256x256\.webp$/);
    expect((await user(member.id)).avatarImg).toBe(first);
    expect(await isStored(first)).toBe(true);
    expect((await loadAccountDetails(member.id))!.avatarSmallImg).toBe(first.replace("256x256", "64x64"));

    const second = await updateAvatar(member.id, await file(await png(500, 500)));
    expect((await user(member.id)).avatarImg).toBe(second);
    expect(await variantsOf(first)).toEqual([]);
    expect(await isStored(second)).toBe(true);

    await removeAvatar(member.id);
    expect((await user(member.id)).avatarImg).toBeNull();
    expect(await variantsOf(second)).toEqual([]);
  });

  it("a bad file changes nothing: same avatar, same files", async () => {
    const member = await createUser();
    const current = await updateAvatar(member.id, await file(await png()));
    const before = await allFiles();
    const updatedAt = (await user(member.id)).updatedAt;

    for (const bad of [await file("definitely not an image"), await file(await png(), "application/pdf"), await file(await png(32, 32)), null]) {
      await expect(updateAvatar(member.id, bad)).rejects.toBeInstanceOf(ImageUploadError);
    }
    expect(await user(member.id)).toMatchObject({ avatarImg: current, updatedAt });
    expect(await allFiles()).toEqual(before);
  });

  it("replaces a value it did not store (a seeded URL) without trying to delete it", async () => {
    const member = await createUser({ avatarImg: "https://images.example.com/seeded.png" });
    const stored = await updateAvatar(member.id, await file(await png()));
    expect((await user(member.id)).avatarImg).toBe(stored);
  });
});
