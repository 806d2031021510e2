import crypto from "node:crypto";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { countQueries, db } from "~/db/client.server";
import { managerArtists, managers, profiles } from "~/db/schema";
import * as managersRoute from "~/routes/admin.managers";
import { useTestDatabase } from "../../../tests/helpers/database";
import { createUser } from "../../../tests/helpers/factories";
import { contextFor, requestAs, sessionCookieFor } from "../../../tests/helpers/requests";
import type { ManagerInput } from "./industry-schemas";
import { IndustryNotFoundError } from "./industry.server";
import { createManager, deleteManager, getManager, listManagers, UnknownArtistsError, updateManager } from "./managers.server";

useTestDatabase();

/** A word no other test uses, so each test sees only its own rows in the shared database. */
const token = () => `t${crypto.randomBytes(4).toString("hex")}`;

let ownerId: number;
beforeAll(async () => {
  ownerId = (await createUser()).id;
});

async function artist(name: string, type: "artist" | "musician" = "artist") {
  const owner = type === "artist" ? ownerId : (await createUser()).id;
  const [row] = await db()
    .insert(profiles)
    .values({ type, ownerId: owner, name, username: `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}` })
    .returning();
  return row!;
}

const input = (overrides: Partial<ManagerInput> & { name: string }): ManagerInput => ({ artists: [], ...overrides });

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

describe("managers", () => {
  it("creates a manager with artists picked by username (any case); lists them with their artists in two queries", async () => {
    const word = token();
    const owls = await artist(`${word} Owls`);
    const larks = await artist(`${word} Larks`);
    const manager = await createManager(
      input({
        name: `${word} Ada Agent`,
        company: " Nightjar Mgmt ",
        email: "ada@nightjar.test",
        phone: "+1 615 555 0100",
        website: "https://nightjar.test",
        artists: [owls.username.toUpperCase(), larks.username],
      }),
    );
    expect(manager).toMatchObject({ name: `${word} Ada Agent`, company: "Nightjar Mgmt", email: "ada@nightjar.test" });
    await createManager(input({ name: `${word} Bo Booker` }));

    const { result, count } = await countQueries(() => listManagers({ q: word }));
    expect(count).toBe(2);
    expect(result).toMatchObject({ total: 2, page: 1, pageCount: 1 });
    expect(result.rows.map((m) => [m.name, m.artists.map((a) => a.username)])).toEqual([
      [`${word} Ada Agent`, [larks.username, owls.username]],
      [`${word} Bo Booker`, []],
    ]);
    expect(result.rows[0]).toMatchObject({ phone: "+1 615 555 0100", website: "https://nightjar.test" });
  });

  it("searches name or company case-insensitively, literally, and pages", async () => {
    const word = token();
    for (const [name, company] of [
      ["Cleo", `${word} Northern 50% Lights`],
      [`${word} Dana`, ""],
      [`${word} Eli`, "Other Co"],
    ]) {
      await createManager(input({ name: name!, company }));
    }
    const names = async (q: string) => (await listManagers({ q })).rows.map((m) => m.name);
    expect(await names(`${word} NORTHERN`)).toEqual(["Cleo"]);
    expect(await names(`${word} northern 50%`)).toEqual(["Cleo"]);
    expect(await names(`${word} Northern%Lights`)).toEqual([]);
    expect(await names(`${word} d`)).toEqual([`${word} Dana`]);
    const second = await listManagers({ q: word, page: 2, pageSize: 2 });
    expect(second).toMatchObject({ total: 3, pageCount: 2 });
    expect(second.rows.map((m) => m.name)).toEqual([`${word} Eli`]);
    expect(await listManagers({ q: word, page: 5, pageSize: 2 })).toMatchObject({ rows: [], total: 3, pageCount: 2 });
  });

  it("names every unknown username (and a non-artist profile's) and saves nothing", async () => {
    const word = token();
    const owls = await artist(`${word} Owls`);
    const musician = await artist(`${word} Session Player`, "musician");
    const error = await caught(createManager(input({ name: `${word} Fay`, artists: [owls.username, `${word}-ghost`, musician.username] })));
    expect(error).toBeInstanceOf(UnknownArtistsError);
    expect((error as UnknownArtistsError).usernames).toEqual([`${word}-ghost`, musician.username]);
    expect((error as Error).message).toBe(
      `No artist pages have the usernames “${word}-ghost” and “${musician.username}”. Check the spelling, or add the artist pages first.`,
    );
    expect((await listManagers({ q: word })).total).toBe(0);
    expect(new UnknownArtistsError(["solo"]).message).toBe("No artist page has the username “solo”. Check the spelling, or add the artist page first.");
  });

  it("updates the details and replaces the artists; an unknown username leaves everything as it was", async () => {
    const word = token();
    const [a, b, c] = [await artist(`${word} A`), await artist(`${word} B`), await artist(`${word} C`)];
    const manager = await createManager(input({ name: `${word} Gil`, artists: [a.username, b.username] }));

    const saved = await updateManager(manager.id, input({ name: `${word} Gil Grant`, email: "gil@grant.test", artists: [c.username, b.username] }));
    expect(saved).toMatchObject({ name: `${word} Gil Grant`, email: "gil@grant.test", company: "" });
    expect((await getManager(manager.id)).artists.map((x) => x.id)).toEqual([b.id, c.id]);

    expect(await caught(updateManager(manager.id, input({ name: "Renamed", artists: [`${word}-nobody`] })))).toBeInstanceOf(UnknownArtistsError);
    expect(await getManager(manager.id)).toMatchObject({ name: `${word} Gil Grant` });

    await updateManager(manager.id, input({ name: `${word} Gil Grant` }));
    expect((await getManager(manager.id)).artists).toEqual([]);
  });

  it("deletes a manager and their links, never the artist pages; unknown ids are not found", async () => {
    const word = token();
    const owls = await artist(`${word} Owls`);
    const manager = await createManager(input({ name: `${word} Hal`, artists: [owls.username] }));
    expect((await deleteManager(manager.id)).name).toBe(`${word} Hal`);
    expect(await db().select().from(managerArtists).where(eq(managerArtists.managerId, manager.id))).toEqual([]);
    expect(await db().select().from(profiles).where(eq(profiles.id, owls.id))).toHaveLength(1);

    expect(await caught(deleteManager(manager.id))).toBeInstanceOf(IndustryNotFoundError);
    expect(await caught(getManager(manager.id))).toBeInstanceOf(IndustryNotFoundError);
    expect(await caught(updateManager(manager.id, input({ name: "X" })))).toBeInstanceOf(IndustryNotFoundError);
  });
});

describe("the /admin/managers loader and action", () => {
  type Args = { request: Request; params: Record<string, string>; context: unknown };
  const call = async (fn: unknown, request: Request): Promise<unknown> => {
    try {
      return await (fn as (args: Args) => Promise<unknown>)({ request, params: {}, context: await contextFor(request) } as never);
    } catch (thrown) {
      return thrown;
    }
  };
  const post = (cookie: string, path: string, body: Record<string, string>) =>
    new Request(`http://localhost:3999${path}`, {
      method: "POST",
      headers: { Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body),
    });
  const asData = (value: unknown) => value as { data: { intent: string; result: { error?: Record<string, string[]> } }; init: { status: number } };

  let adminCookie: string;
  let memberCookie: string;
  beforeAll(async () => {
    adminCookie = await sessionCookieFor((await createUser({ acctType: 2, roleId: 2 })).id);
    memberCookie = await sessionCookieFor((await createUser()).id);
  });

  it("sends a member to /login, reading and writing alike", async () => {
    const word = token();
    const loaded = (await call(managersRoute.loader, requestAs(memberCookie, "/admin/managers"))) as Response;
    expect([loaded.status, loaded.headers.get("Location")]).toEqual([302, "/login"]);
    const posted = (await call(managersRoute.action, post(memberCookie, "/admin/managers", { intent: "create", name: `${word} Sneaky` }))) as Response;
    expect([posted.status, posted.headers.get("Location")]).toEqual([302, "/login"]);
    expect((await listManagers({ q: word })).total).toBe(0);
  });

  it("answers an unknown username beside the artists field, and an unknown record with 404", async () => {
    const word = token();
    const reply = asData(
      await call(managersRoute.action, post(adminCookie, "/admin/managers", { intent: "create", name: `${word} Ivy`, artists: `${word}-nope` })),
    );
    expect(reply.init.status).toBe(400);
    expect(reply.data.result.error).toEqual({ artists: [`No artist page has the username “${word}-nope”. Check the spelling, or add the artist page first.`] });

    const missing = asData(await call(managersRoute.action, post(adminCookie, "/admin/managers", { intent: "delete", id: "2000000000" })));
    expect(missing.init.status).toBe(404);
    const editMissing = asData(await call(managersRoute.loader, requestAs(adminCookie, "/admin/managers?edit=2000000000")));
    expect(editMissing.init.status).toBe(404);
    expect(asData(await call(managersRoute.loader, requestAs(adminCookie, "/admin/managers?edit=abc"))).init.status).toBe(404);
  });

  it("opens a manager for editing and returns to the same search afterwards", async () => {
    const word = token();
    const manager = await createManager(input({ name: `${word} Jo` }));
    const loaded = (await call(managersRoute.loader, requestAs(adminCookie, `/admin/managers?q=${word}&edit=${manager.id}`))) as Awaited<
      ReturnType<typeof managersRoute.loader>
    >;
    expect(loaded.editing).toMatchObject({ id: manager.id, name: `${word} Jo`, artists: [] });
    expect(loaded.list.rows.map((m) => m.id)).toEqual([manager.id]);

    const saved = (await call(
      managersRoute.action,
      post(adminCookie, `/admin/managers?q=${word}&edit=${manager.id}`, { intent: "update", id: String(manager.id), name: `${word} Jo Jones` }),
    )) as Response;
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toMatch(new RegExp(`^/admin/managers\\?q=${word}&done=${manager.id}-`));
    const [row] = await db().select().from(managers).where(eq(managers.id, manager.id));
    expect(row!.name).toBe(`${word} Jo Jones`);
  });
});
