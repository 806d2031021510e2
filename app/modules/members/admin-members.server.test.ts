import crypto from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { countQueries, db } from "~/db/client.server";
import { escapeLike, pageCountFor } from "~/db/list-queries";
import { legalDocuments, sessions, users } from "~/db/schema";
import { activateAccount, EmailTakenError } from "~/modules/accounts/accounts.server";
import { startUserSession } from "~/modules/accounts/session.server";
import { pendingDocumentsFor, signDocuments } from "~/modules/legal/legal.server";
import { createUser, uniqueEmail } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { useSmtpListener } from "../../../tests/helpers/smtp";
import { accessChangeRefusal, creationRefusal, parseMemberListQuery, PERMISSION_MESSAGES, suspensionRefusal } from "./admin-members";
import {
  changeMemberAccess,
  createMember,
  getMemberDetail,
  listConditions,
  listMembers,
  MemberActionError,
  reactivateMember,
  resendActivation,
  resendVerification,
  suspendMember,
} from "./admin-members.server";
import { readSessionUser } from "~/modules/accounts/session-user.server";
import { routeArgs } from "../../../tests/helpers/requests";

useTestDatabase();
const smtp = useSmtpListener();

/** A word no other test uses, so each test searches only its own rows in the shared database. */
const token = () => `t${crypto.randomBytes(4).toString("hex")}`;

const superAdmin = () => createUser({ name: "Sam", lastName: "Super", acctType: 2, roleId: 1 });
const admin = () => createUser({ name: "Ada", lastName: "Admin", acctType: 2, roleId: 2 });
const manager = () => createUser({ name: "Max", lastName: "Manager", acctType: 2, roleId: 3 });

async function expectRefusal(promise: Promise<unknown>, status: number, message?: string) {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MemberActionError);
  expect((error as MemberActionError).status).toBe(status);
  if (message) expect((error as MemberActionError).message).toBe(message);
}

/** Many plain members in one insert (the factory hashes a password per user, which is slow). */
async function insertMembers(count: number, word: string, createdAt?: (i: number) => Date) {
  return db()
    .insert(users)
    .values(
      Array.from({ length: count }, (_, i) => ({
        name: "Bulk",
        lastName: `${word}-${i}`,
        email: uniqueEmail("bulk"),
        emailVerifiedAt: new Date(),
        activatedAt: new Date(),
        ...(createdAt ? { createdAt: createdAt(i) } : {}),
      })),
    )
    .returning();
}

async function sessionCookie(userId: number): Promise<string> {
  const response = await startUserSession(new Request("http://localhost/login"), { userId, ip: "10.9.0.1", redirectTo: "/" });
  return response.headers.get("Set-Cookie")!.split(";")[0]!;
}

describe("member list: search and filters", () => {
  it("finds members by name, full name or email, case-insensitively", async () => {
    const word = token();
    const zelda = await createUser({ name: "Zelda", lastName: `Quartz${word}`, email: `zq-${word}@example.test` });
    await createUser({ name: "Other", lastName: `Person${word}` });

    const ids = async (q: string) => (await listMembers({ q })).members.map((m) => m.id);
    expect(await ids(`QUARTZ${word.toUpperCase()}`)).toEqual([zelda.id]);
    expect(await ids(`zelda quartz${word}`)).toEqual([zelda.id]);
    expect(await ids(`ZQ-${word}@EXAMPLE`)).toEqual([zelda.id]);
    expect(await ids(word)).toHaveLength(2);
    expect(await ids(`nobody-${word}`)).toEqual([]);
  });

  it("matches % and _ literally", async () => {
    const word = token();
    const literal = await createUser({ name: "Per%cent_", lastName: word });
    await createUser({ name: "Percent", lastName: word });
    expect(escapeLike("50%_a\\b")).toBe("50\\%\\_a\\\\b");
    expect((await listMembers({ q: `per%cent_ ${word}` })).members.map((m) => m.id)).toEqual([literal.id]);
    expect((await listMembers({ q: `%${word}` })).total).toBe(0);
  });

  it("filters by account type and by status (exclusive: suspended, pending activation, unverified, active)", async () => {
    const word = token();
    const now = new Date();
    const active = await createUser({ lastName: word });
    const unverified = await createUser({ lastName: word, emailVerifiedAt: null });
    const pending = await createUser({ lastName: word, activatedAt: null, emailVerifiedAt: null, passwordHash: null });
    const suspended = await createUser({ lastName: word, suspendedAt: now, emailVerifiedAt: null });
    const adminUser = await createUser({ lastName: word, acctType: 2, roleId: 2 });

    const ids = async (query: Parameters<typeof listMembers>[0]) => (await listMembers({ q: word, ...query })).members.map((m) => m.id).sort((a, b) => a - b);
    expect(await ids({ status: "active" })).toEqual([active.id, adminUser.id]);
    expect(await ids({ status: "unverified" })).toEqual([unverified.id]);
    expect(await ids({ status: "account_pending" })).toEqual([pending.id]);
    expect(await ids({ status: "suspended" })).toEqual([suspended.id]);
    expect(await ids({ type: "admin" })).toEqual([adminUser.id]);
    expect(await ids({ type: "member" })).toHaveLength(4);
    expect(await ids({ type: "member", status: "active" })).toEqual([active.id]);

    const rows = (await listMembers({ q: word })).members;
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({
      [active.id]: "active",
      [unverified.id]: "unverified",
      [pending.id]: "account_pending",
      [suspended.id]: "suspended",
      [adminUser.id]: "active",
    });
  });

  it("reads the URL query, falling back to no filter and page 1 for anything malformed", () => {
    expect(parseMemberListQuery(new URLSearchParams("q=%20ada%20&type=admin&status=suspended&page=3"))).toEqual({
      q: "ada",
      type: "admin",
      status: "suspended",
      page: 3,
    });
    expect(parseMemberListQuery(new URLSearchParams("type=root&status=gone&page=-2"))).toEqual({
      q: "",
      type: undefined,
      status: undefined,
      page: 1,
    });
    expect(parseMemberListQuery(new URLSearchParams("page=abc")).page).toBe(1);
    expect(parseMemberListQuery(new URLSearchParams(`q=${"x".repeat(500)}`)).q).toBe("");
  });
});

describe("member list: pagination", () => {
  it("pages 25 at a time, newest first, with the total and the page count", async () => {
    const word = token();
    const base = Date.UTC(2024, 0, 1);
    const created = await insertMembers(30, word, (i) => new Date(base + i * 60_000));
    const newestFirst = created.map((u) => u.id).reverse();

    const first = await listMembers({ q: word });
    expect(first).toMatchObject({ total: 30, page: 1, pageSize: 25, pageCount: 2 });
    expect(first.members.map((m) => m.id)).toEqual(newestFirst.slice(0, 25));
    expect(first.members[0]!.createdAt).toBe(new Date(base + 29 * 60_000).toISOString());

    const second = await listMembers({ q: word, page: 2 });
    expect(second.members.map((m) => m.id)).toEqual(newestFirst.slice(25));

    const beyond = await listMembers({ q: word, page: 9 });
    expect(beyond).toMatchObject({ total: 30, page: 9, pageCount: 2, members: [] });
  });

  it("computes the page count", () => {
    expect(pageCountFor(0, 25)).toBe(1);
    expect(pageCountFor(1, 25)).toBe(1);
    expect(pageCountFor(25, 25)).toBe(1);
    expect(pageCountFor(26, 25)).toBe(2);
    expect(pageCountFor(250, 25)).toBe(10);
  });

  it("runs two queries (page and count) whatever the page size, the search or the filters", async () => {
    const word = token();
    await insertMembers(60, word);
    const small = await countQueries(() => listMembers({ q: word, pageSize: 5 }));
    const large = await countQueries(() => listMembers({ q: word, pageSize: 100 }));
    const filtered = await countQueries(() => listMembers({ q: word, type: "member", status: "active", page: 2 }));
    expect(small.result.members).toHaveLength(5);
    expect(large.result.members).toHaveLength(60);
    expect(filtered.result.members).toHaveLength(25);
    for (const run of [small, large, filtered]) expect(run.count).toBe(2);
  });

  it("is served by indexes: the trigram index for the search, the created_at index for the order", async () => {
    await insertMembers(50, token());
    // Tiny test tables are cheaper to scan, so the planner is told which plans not to use, to see which index
    // the query *can* use: the search must be able to use the trigram index (GIN indexes give bitmap scans only).
    const plan = (settings: string[], query: ReturnType<typeof sql>) =>
      db().transaction(async (tx) => {
        for (const setting of settings) await tx.execute(sql.raw(`set local ${setting} = off`));
        const result = (await tx.execute(sql`explain ${query}`)) as unknown as { rows: Array<Record<string, string>> };
        return result.rows.map((r) => Object.values(r)[0]).join("\n");
      });
    const search = listConditions({ q: "ada lov" })!;
    expect(await plan(["enable_seqscan", "enable_indexscan"], sql`select count(*) from ${users} where ${search}`)).toContain("users_search_trgm_idx");
    expect(await plan(["enable_seqscan"], sql`select id from ${users} order by ${users.createdAt} desc, ${users.id} desc limit 25`)).toContain(
      "users_created_at_idx",
    );
  });

  it("the /admin/members loader runs the same, bounded number of queries for any page size", async () => {
    const { loader } = await import("~/routes/admin.members");
    const actor = await admin();
    const cookie = await sessionCookie(actor.id);
    const word = token();
    await insertMembers(30, word);
    const run = (search: string) =>
      countQueries(async () => loader((await routeArgs(new Request(`http://localhost/admin/members${search}`, { headers: { Cookie: cookie } }))) as never));
    const page1 = await run(`?q=${word}`);
    const page2 = await run(`?q=${word}&page=2&status=active&type=member`);
    expect(page1.result.list.members).toHaveLength(25);
    expect(page2.result.list.members).toHaveLength(5);
    expect(page1.result.list.total).toBe(30);
    // The admin guard (session, user, legal agreement) and the list (page, count).
    expect(page1.count).toBe(page2.count);
    expect(page1.count).toBeLessThanOrEqual(5);
  });
});

describe("permissions", () => {
  const a = (id: number, acctType: number, roleId: number) => ({ id, acctType, roleId });

  it("needs admin access (role below 3) to change access or suspend", () => {
    for (const roleId of [3, 4, 5]) {
      expect(accessChangeRefusal(a(1, 2, roleId), a(2, 1, 5), { acctType: 2, roleId: 5 })).toBe(PERMISSION_MESSAGES.needsAdminAccess);
      expect(suspensionRefusal(a(1, 2, roleId), a(2, 1, 5))).toBe(PERMISSION_MESSAGES.needsAdminAccess);
    }
    expect(accessChangeRefusal(a(1, 2, 2), a(2, 1, 5), { acctType: 2, roleId: 3 })).toBeNull();
  });

  it("keeps admins from demoting or suspending themselves", () => {
    expect(accessChangeRefusal(a(1, 2, 2), a(1, 2, 2), { acctType: 1, roleId: 2 })).toBe(PERMISSION_MESSAGES.noSelfDemotion);
    expect(accessChangeRefusal(a(1, 2, 1), a(1, 2, 1), { acctType: 2, roleId: 2 })).toBe(PERMISSION_MESSAGES.noSelfDemotion);
    expect(accessChangeRefusal(a(1, 2, 2), a(1, 2, 2), { acctType: 2, roleId: 2 })).toBeNull();
    expect(suspensionRefusal(a(1, 2, 1), a(1, 2, 1))).toBe(PERMISSION_MESSAGES.noSelfSuspension);
  });

  it("lets only a super admin grant the super admin role or act on a super admin", () => {
    expect(accessChangeRefusal(a(1, 2, 2), a(2, 2, 2), { acctType: 2, roleId: 1 })).toBe(PERMISSION_MESSAGES.superAdminOnlyGrant);
    expect(accessChangeRefusal(a(1, 2, 2), a(1, 2, 2), { acctType: 2, roleId: 1 })).toBe(PERMISSION_MESSAGES.superAdminOnlyGrant);
    expect(accessChangeRefusal(a(1, 2, 1), a(2, 2, 2), { acctType: 2, roleId: 1 })).toBeNull();
    expect(accessChangeRefusal(a(1, 2, 2), a(2, 2, 1), { acctType: 2, roleId: 2 })).toBe(PERMISSION_MESSAGES.superAdminOnlyTarget);
    expect(suspensionRefusal(a(1, 2, 2), a(2, 2, 1))).toBe(PERMISSION_MESSAGES.superAdminOnlyTarget);
    expect(suspensionRefusal(a(1, 2, 1), a(2, 2, 1))).toBeNull();
  });

  it("lets any admin create plain members, and applies the same grant rules to new accounts", () => {
    expect(creationRefusal(a(1, 2, 5), { acctType: 1, roleId: 5 })).toBeNull();
    expect(creationRefusal(a(1, 2, 3), { acctType: 2, roleId: 5 })).toBe(PERMISSION_MESSAGES.needsAdminAccessToCreate);
    expect(creationRefusal(a(1, 2, 4), { acctType: 1, roleId: 4 })).toBe(PERMISSION_MESSAGES.needsAdminAccessToCreate);
    expect(creationRefusal(a(1, 2, 2), { acctType: 2, roleId: 2 })).toBeNull();
    expect(creationRefusal(a(1, 2, 2), { acctType: 2, roleId: 1 })).toBe(PERMISSION_MESSAGES.superAdminOnlyGrant);
    expect(creationRefusal(a(1, 2, 1), { acctType: 2, roleId: 1 })).toBeNull();
  });
});

describe("changing account type and role", () => {
  it("changes both for an admin with admin access, and says when nothing changed", async () => {
    const actor = await admin();
    const member = await createUser();
    const result = await changeMemberAccess(actor, member.id, { acctType: 2, roleId: 3 });
    expect(result.changed).toBe(true);
    const [row] = await db().select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({ acctType: 2, roleId: 3 });
    expect((await changeMemberAccess(actor, member.id, { acctType: 2, roleId: 3 })).changed).toBe(false);
  });

  it("refuses with 403 and changes nothing when a rule says no", async () => {
    const member = await createUser();
    const actorAdmin = await admin();
    await expectRefusal(changeMemberAccess(await manager(), member.id, { acctType: 2, roleId: 2 }), 403, PERMISSION_MESSAGES.needsAdminAccess);
    await expectRefusal(changeMemberAccess(actorAdmin, actorAdmin.id, { acctType: 1, roleId: 2 }), 403, PERMISSION_MESSAGES.noSelfDemotion);
    await expectRefusal(changeMemberAccess(actorAdmin, member.id, { acctType: 2, roleId: 1 }), 403, PERMISSION_MESSAGES.superAdminOnlyGrant);
    await expectRefusal(changeMemberAccess(actorAdmin, (await superAdmin()).id, { acctType: 1, roleId: 5 }), 403, PERMISSION_MESSAGES.superAdminOnlyTarget);
    const [row] = await db().select().from(users).where(eq(users.id, member.id));
    expect(row).toMatchObject({ acctType: 1, roleId: 5 });
    const [self] = await db().select().from(users).where(eq(users.id, actorAdmin.id));
    expect(self).toMatchObject({ acctType: 2, roleId: 2 });
  });

  it("lets a super admin grant the super admin role", async () => {
    const member = await createUser({ acctType: 2, roleId: 2 });
    await changeMemberAccess(await superAdmin(), member.id, { acctType: 2, roleId: 1 });
    const [row] = await db().select().from(users).where(eq(users.id, member.id));
    expect(row!.roleId).toBe(1);
  });

  it("answers 404 for a member that does not exist", async () => {
    await expectRefusal(changeMemberAccess(await admin(), 2_000_000_000, { acctType: 1, roleId: 5 }), 404);
    await expectRefusal(suspendMember(await admin(), 2_000_000_000), 404);
  });
});

describe("suspension", () => {
  it("suspends, ends every session at once, and reactivates", async () => {
    const actor = await admin();
    const member = await createUser();
    const cookies = [await sessionCookie(member.id), await sessionCookie(member.id)];
    const other = await createUser();
    await sessionCookie(other.id);
    expect(await db().select().from(sessions).where(eq(sessions.userId, member.id))).toHaveLength(2);

    const result = await suspendMember(actor, member.id);
    expect(result.changed).toBe(true);
    expect(result.member.suspendedAt).toBeInstanceOf(Date);
    expect(await db().select().from(sessions).where(eq(sessions.userId, member.id))).toHaveLength(0);
    expect(await db().select().from(sessions).where(eq(sessions.userId, other.id))).toHaveLength(1);
    for (const cookie of cookies) {
      expect(await readSessionUser(cookie)).toEqual({ user: null, agreedToAllDocuments: false });
    }
    expect((await suspendMember(actor, member.id)).changed).toBe(false);

    const back = await reactivateMember(actor, member.id);
    expect(back.changed).toBe(true);
    expect(back.member.suspendedAt).toBeNull();
    expect((await reactivateMember(actor, member.id)).changed).toBe(false);
  });

  it("refuses self-suspension and suspension by an admin without admin access", async () => {
    const actor = await admin();
    await expectRefusal(suspendMember(actor, actor.id), 403, PERMISSION_MESSAGES.noSelfSuspension);
    const member = await createUser();
    await expectRefusal(suspendMember(await manager(), member.id), 403, PERMISSION_MESSAGES.needsAdminAccess);
    await expectRefusal(reactivateMember(await manager(), member.id), 403, PERMISSION_MESSAGES.needsAdminAccess);
    const [row] = await db().select().from(users).where(eq(users.id, member.id));
    expect(row!.suspendedAt).toBeNull();
  });
});

describe("creating members and resending links", () => {
  it("creates a pending account that receives an activation link, signed by the acting admin", async () => {
    const actor = await admin();
    const email = uniqueEmail("created");
    const member = await createMember(actor, { name: "Nina", lastName: "New", email, acctType: 1, roleId: 5 });
    expect(member).toMatchObject({ acctType: 1, roleId: 5, passwordHash: null, activatedAt: null });

    const mail = await smtp.next(email);
    expect(mail.subject).toMatch(/Activate your .* account/);
    expect(mail.text).toContain("Ada Admin created an account for you");
    const link = mail.links[0]!;
    expect(await activateAccount({ token: new URL(link).searchParams.get("token")!, url: link, password: "first-password" })).toBe("valid");
    expect((await getMemberDetail(member.id))!.status).toBe("active");
  });

  it("refuses a taken email (any case) and elevated access from an admin without admin access", async () => {
    const actor = await admin();
    const existing = await createUser();
    await expect(createMember(actor, { name: "D", lastName: "Up", email: existing.email.toUpperCase(), acctType: 1, roleId: 5 })).rejects.toBeInstanceOf(
      EmailTakenError,
    );
    const email = uniqueEmail("elevated");
    await expectRefusal(createMember(await manager(), { name: "E", lastName: "L", email, acctType: 2, roleId: 5 }), 403);
    await expectRefusal(createMember(actor, { name: "E", lastName: "L", email, acctType: 2, roleId: 1 }), 403, PERMISSION_MESSAGES.superAdminOnlyGrant);
    expect(await db().select().from(users).where(eq(users.email, email))).toHaveLength(0);
    const plain = await createMember(await manager(), { name: "P", lastName: "L", email, acctType: 1, roleId: 5 });
    expect(plain.acctType).toBe(1);
    await smtp.next(email);
  });

  it("resends the activation link only while the account is not activated", async () => {
    const actor = await admin();
    const pending = await createUser({ activatedAt: null, emailVerifiedAt: null, passwordHash: null });
    await resendActivation(actor, pending.id);
    const mail = await smtp.next(pending.email);
    expect(mail.text).toContain("Ada Admin created an account for you");
    expect(mail.links[0]).toContain("/activate-account?");
    await expectRefusal(resendActivation(actor, (await createUser()).id), 409, "This account is already activated.");
  });

  it("resends the verification link only while the email is unverified", async () => {
    const actor = await admin();
    const unverified = await createUser({ emailVerifiedAt: null });
    await resendVerification(actor, unverified.id);
    const mail = await smtp.next(unverified.email);
    expect(mail.subject).toMatch(/Verify your email address/);
    expect(mail.links[0]).toContain(`/email-verify/${unverified.id}/`);
    await expectRefusal(resendVerification(actor, (await createUser()).id), 409, "This email address is already verified.");
  });
});

describe("member details", () => {
  it("shows the member and their agreement to the current version of each published document", async () => {
    const word = token();
    const [terms] = await db()
      .insert(legalDocuments)
      .values({ name: `Terms ${word}`, slug: `terms-${word}`, content: "<p>x</p>", published: true, required: true, version: 2 })
      .returning();
    const [optional] = await db()
      .insert(legalDocuments)
      .values({ name: `Optional ${word}`, slug: `optional-${word}`, content: "<p>x</p>", published: true, required: false })
      .returning();
    try {
      const member = await createUser({ name: "Dee", lastName: "Tail" });
      let detail = (await getMemberDetail(member.id))!;
      expect(detail).toMatchObject({ fullName: "Dee Tail", email: member.email, status: "active", acctType: 1, roleId: 5 });
      expect(detail.agreedToAllDocuments).toBe(false);
      expect(detail.agreedToAllDocuments).toBe((await pendingDocumentsFor(member.id)).length === 0);
      expect(detail.documents.find((d) => d.id === optional!.id)).toMatchObject({ required: false, signedAt: null });

      await signDocuments({ userId: member.id, documentIds: [terms!.id], ip: "10.9.0.2", userAgent: "test" });
      detail = (await getMemberDetail(member.id))!;
      expect(detail.agreedToAllDocuments).toBe(true);
      expect((await pendingDocumentsFor(member.id)).map((d) => d.id)).not.toContain(terms!.id);
      expect(detail.documents.find((d) => d.id === terms!.id)!.signedAt).toMatch(/^\d{4}-/);

      expect(await getMemberDetail(2_000_000_000)).toBeNull();
    } finally {
      // Other tests log in as admins, who would otherwise be asked to agree first.
      await db().delete(legalDocuments).where(eq(legalDocuments.id, terms!.id));
      await db().delete(legalDocuments).where(eq(legalDocuments.id, optional!.id));
    }
  });
});

describe("the /admin/member/{id} route", () => {
  const request = (path: string, cookie: string, form?: Record<string, string>) =>
    new Request(`http://localhost${path}`, {
      method: form ? "POST" : "GET",
      headers: { Cookie: cookie },
      body: form ? new URLSearchParams(form) : undefined,
    });

  it("answers 404 for an unknown or malformed id", async () => {
    const { loader, action } = await import("~/routes/admin.member.$id");
    const cookie = await sessionCookie((await admin()).id);
    for (const id of ["2000000000", "abc", "0", "1.5", "99999999999"]) {
      const thrown = await Promise.resolve(loader((await routeArgs(request(`/admin/member/${id}`, cookie), { id })) as never)).then(
        () => null,
        (e: unknown) => e,
      );
      expect((thrown as { init?: { status?: number } })?.init?.status).toBe(404);
    }
    const thrown = await Promise.resolve(action((await routeArgs(request("/admin/member/abc", cookie, { intent: "suspend" }), { id: "abc" })) as never)).then(
      () => null,
      (e: unknown) => e,
    );
    expect((thrown as { init?: { status?: number } })?.init?.status).toBe(404);
  });

  it("confirms an action with a flash message and stays on the page; a refusal is a 403 with its message", async () => {
    const { action } = await import("~/routes/admin.member.$id");
    const actor = await admin();
    const cookie = await sessionCookie(actor.id);
    const member = await createUser();
    const call = async (memberId: number, form: Record<string, string>, as = cookie) =>
      action((await routeArgs(request(`/admin/member/${memberId}`, as, form), { id: String(memberId) })) as never);

    const response = (await call(member.id, { intent: "suspend" })) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/admin/member/${member.id}`);
    expect(response.headers.get("Set-Cookie")).toMatch(/backline_flash=/);

    const self = (await call(actor.id, { intent: "suspend" })) as unknown as {
      data: { result: { error: Record<string, string[]> } };
      init: { status: number };
    };
    expect(self.init.status).toBe(403);
    expect(self.data.result.error[""]).toEqual([PERMISSION_MESSAGES.noSelfSuspension]);

    const managerCookie = await sessionCookie((await manager()).id);
    const denied = (await call(member.id, { intent: "change-access", acctType: "2", roleId: "2" }, managerCookie)) as unknown as {
      init: { status: number };
      data: { intent: string; result: { error: Record<string, string[]> } };
    };
    expect(denied.init.status).toBe(403);
    expect(denied.data.intent).toBe("change-access");
    expect(denied.data.result.error[""]).toEqual([PERMISSION_MESSAGES.needsAdminAccess]);

    const invalid = (await call(member.id, { intent: "change-access", acctType: "7", roleId: "9" })) as unknown as { init: { status: number } };
    expect(invalid.init.status).toBe(400);
    const unknown = (await call(member.id, { intent: "delete" })) as unknown as { init: { status: number } };
    expect(unknown.init.status).toBe(400);
  });
});
