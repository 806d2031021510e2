import crypto from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { countQueries, db } from "~/db/client.server";
import { profileReferenceValues, profiles, referenceValues, type ReferenceKind } from "~/db/schema";
import * as genresRoute from "~/routes/admin.genres";
import * as prosRoute from "~/routes/admin.pros";
import { useTestDatabase } from "../../../tests/helpers/database";
import { createUser } from "../../../tests/helpers/factories";
import { contextFor, requestAs, sessionCookieFor } from "../../../tests/helpers/requests";
import { loadReferenceOptions } from "./reference-options.server";
import { seedReferenceData } from "./reference-seed.server";
import { parseReferenceListQuery, protectedSkillList, referenceActionSchema, referenceCreateSchema } from "./reference-schemas";
import {
  createReferenceValue,
  listReferenceValues,
  ReferenceFieldError,
  ReferenceNotFoundError,
  restoreReferenceValue,
  retireReferenceValue,
  updateReferenceValue,
} from "./reference.server";

useTestDatabase();

/** A word no other test uses, so each test sees only its own rows in the shared database. */
const token = () => `t${crypto.randomBytes(4).toString("hex")}`;

let ownerId: number;
beforeAll(async () => {
  ownerId = (await createUser()).id;
});

async function makeProfiles(count: number) {
  const word = token();
  return db()
    .insert(profiles)
    .values(Array.from({ length: count }, (_, i) => ({ type: "artist" as const, ownerId, name: `P ${word} ${i}`, username: `${word}-${i}` })))
    .returning({ id: profiles.id });
}

async function carry(valueId: number, profileIds: number[]) {
  if (profileIds.length)
    await db()
      .insert(profileReferenceValues)
      .values(profileIds.map((profileId) => ({ profileId, valueId })));
}

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

describe("listReferenceValues", () => {
  it("lists a kind's values by name with the number of profiles carrying each, in one query", async () => {
    const word = token();
    const [a, b, c] = await Promise.all(["Alpha", "Bravo", "Charlie"].map((n) => createReferenceValue("genre", { name: `${word} ${n}` })));
    await createReferenceValue("skill", { name: `${word} Skill` });
    const [p1, p2, p3] = await makeProfiles(3);
    await carry(a!.id, [p1!.id, p2!.id, p3!.id]);
    await carry(c!.id, [p2!.id]);

    const { result, count } = await countQueries(() => listReferenceValues("genre", { q: word }));
    expect(count).toBe(1);
    expect(result.values.map((v) => [v.name, v.profileCount])).toEqual([
      [`${word} Alpha`, 3],
      [`${word} Bravo`, 0],
      [`${word} Charlie`, 1],
    ]);
    expect(result).toMatchObject({ total: 3, page: 1, pageCount: 1 });
    expect(result.values[1]).toMatchObject({ id: b!.id, retiredAt: null, country: null, website: null, code: null });
  });

  it("searches case-insensitively and literally, filters by status and pages", async () => {
    const word = token();
    const names = ["Drum and Bass", "Drumkit 100%", "Drumline", "Snare_Drum", "Harp"].map((n) => `${word} ${n}`);
    const created = [];
    for (const name of names) created.push(await createReferenceValue("instrument", { name }));
    await retireReferenceValue("instrument", created[2]!.id);

    const names$ = async (q: string, status: "all" | "active" | "retired" = "all") =>
      (await listReferenceValues("instrument", { q, status })).values.map((v) => v.name);
    expect(await names$(`${word} DRUM`)).toEqual([names[0], names[1], names[2]]);
    expect(await names$(`${word} drumKIT 100%`)).toEqual([names[1]]);
    // "_" and "%" match themselves, not any character.
    expect(await names$(`${word} snare_`)).toEqual([names[3]]);
    expect(await names$(`${word} D%line`)).toEqual([]);
    expect(await names$(`${word} Drum_ine`)).toEqual([]);
    expect(await names$(word, "retired")).toEqual([names[2]]);
    expect(await names$(word, "active")).toEqual([names[0], names[1], names[4], names[3]]);

    const page2 = await listReferenceValues("instrument", { q: word, page: 2, pageSize: 2 });
    expect(page2.values.map((v) => v.name)).toEqual([names[2], names[4]]);
    expect(page2).toMatchObject({ total: 5, page: 2, pageSize: 2, pageCount: 3 });
    // Past the end: no rows, but the total (and so the last page) is still known.
    const beyond = await listReferenceValues("instrument", { q: word, page: 9, pageSize: 2 });
    expect(beyond).toMatchObject({ values: [], total: 5, pageCount: 3 });
  });

  it("finds PROs by code and country too", async () => {
    const word = token();
    const pro = await createReferenceValue("pro", { name: `${word} Society`, country: `${word}land`, code: `${word.slice(1, 7).toUpperCase()}` });
    expect((await listReferenceValues("pro", { q: `${word}LAND` })).values.map((v) => v.id)).toEqual([pro.id]);
    expect((await listReferenceValues("pro", { q: word.slice(1, 7) })).values.map((v) => v.id)).toEqual([pro.id]);
  });

  it("reads a malformed query as no filter and page 1", () => {
    expect(parseReferenceListQuery(new URLSearchParams("q=%20rock%20&status=gone&page=-4"))).toEqual({ q: "rock", status: "all", page: 1 });
    expect(parseReferenceListQuery(new URLSearchParams("status=retired&page=3"))).toEqual({ q: "", status: "retired", page: 3 });
  });
});

describe("createReferenceValue", () => {
  it("stores a trimmed name; only PROs keep country, website and code (code in capitals)", async () => {
    const word = token();
    const genre = await createReferenceValue("genre", { name: `  ${word} Shoegaze  `, country: "Nowhere", code: "X" });
    expect(genre).toMatchObject({ kind: "genre", name: `${word} Shoegaze`, country: null, website: null, code: null, retiredAt: null });
    const pro = await createReferenceValue("pro", { name: `${word} PRO`, country: "Iceland", website: "https://www.stef.is", code: "stef" });
    expect(pro).toMatchObject({ kind: "pro", country: "Iceland", website: "https://www.stef.is", code: "STEF" });
    const bare = await createReferenceValue("pro", { name: `${word} Bare`, country: "Peru" });
    expect(bare).toMatchObject({ website: null, code: null });
  });

  it("refuses a name the kind already has, whatever its case, with a field error; another kind may use it", async () => {
    const word = token();
    await createReferenceValue("genre", { name: `${word} Polka` });
    const error = await caught(createReferenceValue("genre", { name: `${word.toUpperCase()} POLKA` }));
    expect(error).toBeInstanceOf(ReferenceFieldError);
    expect((error as ReferenceFieldError).field).toBe("name");
    expect((error as ReferenceFieldError).message).toBe(`“${word} Polka” is already in the genres list.`);
    await expect(createReferenceValue("skill", { name: `${word} Polka` })).resolves.toMatchObject({ kind: "skill" });
  });

  it("points at a retired value of the same name: restore it instead", async () => {
    const word = token();
    const old = await createReferenceValue("language", { name: `${word} Latin` });
    await retireReferenceValue("language", old.id);
    const error = await caught(createReferenceValue("language", { name: `${word} latin` }));
    expect((error as ReferenceFieldError).message).toBe(`A retired language is already called “${word} Latin”: restore it instead of adding it again.`);
  });
});

describe("updateReferenceValue", () => {
  it("renames and sets a PRO's fields; reports when nothing changed", async () => {
    const word = token();
    const pro = await createReferenceValue("pro", { name: `${word} Old`, country: "Chile" });
    const renamed = await updateReferenceValue("pro", pro.id, { name: `${word} New`, country: "Chile", website: "https://scd.cl", code: "scd" });
    expect(renamed.changed).toBe(true);
    expect(renamed.previousName).toBe(`${word} Old`);
    expect(renamed.value).toMatchObject({ name: `${word} New`, country: "Chile", website: "https://scd.cl", code: "SCD" });
    expect(renamed.value.updatedAt.getTime()).toBeGreaterThanOrEqual(pro.updatedAt.getTime());

    const again = await updateReferenceValue("pro", pro.id, { name: `${word} New`, country: "Chile", website: "https://scd.cl", code: "SCD" });
    expect(again.changed).toBe(false);
    const cleared = await updateReferenceValue("pro", pro.id, { name: `${word} New`, country: "Chile" });
    expect(cleared.value).toMatchObject({ website: null, code: null });
  });

  it("lets a value change the case of its own name but not take another's", async () => {
    const word = token();
    const jazz = await createReferenceValue("genre", { name: `${word} jazz` });
    await createReferenceValue("genre", { name: `${word} Blues` });
    await expect(updateReferenceValue("genre", jazz.id, { name: `${word} Jazz` })).resolves.toMatchObject({ changed: true });
    const error = await caught(updateReferenceValue("genre", jazz.id, { name: `${word} BLUES` }));
    expect(error).toBeInstanceOf(ReferenceFieldError);
    expect((error as Error).message).toBe(`“${word} Blues” is already in the genres list.`);
    const [row] = await db().select().from(referenceValues).where(eq(referenceValues.id, jazz.id));
    expect(row!.name).toBe(`${word} Jazz`);
  });

  it("answers not found for an id of another kind, or no value at all", async () => {
    const skill = await createReferenceValue("skill", { name: `${token()} Whistling` });
    expect(await caught(updateReferenceValue("genre", skill.id, { name: "Hijack" }))).toBeInstanceOf(ReferenceNotFoundError);
    expect(await caught(updateReferenceValue("skill", 2_000_000_000, { name: "Nothing" }))).toBeInstanceOf(ReferenceNotFoundError);
    expect(await caught(retireReferenceValue("instrument", skill.id))).toBeInstanceOf(ReferenceNotFoundError);
    expect(await caught(restoreReferenceValue("pro", skill.id))).toBeInstanceOf(ReferenceNotFoundError);
    const [row] = await db().select().from(referenceValues).where(eq(referenceValues.id, skill.id));
    expect(row).toMatchObject({ kind: "skill", retiredAt: null });
  });

  it("refuses to rename the DJ and Songwriter skills (the admin lists find their profiles by name)", async () => {
    await seedReferenceData(db());
    const [dj] = await db()
      .select()
      .from(referenceValues)
      .where(and(eq(referenceValues.kind, "skill"), eq(referenceValues.name, "DJ")));
    expect(protectedSkillList("skill", "dj")).toBe("DJs");
    expect(protectedSkillList("skill", "Songwriter")).toBe("Songwriters");
    expect(protectedSkillList("genre", "DJ")).toBeNull();
    const error = await caught(updateReferenceValue("skill", dj!.id, { name: "Disc Jockey" }));
    expect((error as ReferenceFieldError).message).toBe("The “DJ” skill cannot be renamed: the admin DJs list finds its profiles by this name.");
    await expect(updateReferenceValue("skill", dj!.id, { name: "DJ" })).resolves.toMatchObject({ changed: false });
  });
});

describe("retire and restore", () => {
  it("a retired value stays on its profiles but is no longer offered; restoring offers it again", async () => {
    const word = token();
    const value = await createReferenceValue("genre", { name: `${word} Zydeco` });
    const [p1, p2] = await makeProfiles(2);
    await carry(value.id, [p1!.id, p2!.id]);
    const offered = async () => (await loadReferenceOptions(["genre"])).genre.some((o) => o.id === value.id);
    expect(await offered()).toBe(true);

    const retired = await retireReferenceValue("genre", value.id);
    expect(retired).toMatchObject({ changed: true, profileCount: 2 });
    expect(retired.value.retiredAt).toBeInstanceOf(Date);
    expect(await offered()).toBe(false);
    const kept = await db().select().from(profileReferenceValues).where(eq(profileReferenceValues.valueId, value.id));
    expect(kept).toHaveLength(2);
    const listed = (await listReferenceValues("genre", { q: word })).values[0]!;
    expect(listed.retiredAt).toBe(retired.value.retiredAt!.toISOString());
    expect(listed.profileCount).toBe(2);

    expect(await retireReferenceValue("genre", value.id)).toMatchObject({ changed: false });

    const restored = await restoreReferenceValue("genre", value.id);
    expect(restored.changed).toBe(true);
    expect(restored.value.retiredAt).toBeNull();
    expect(await offered()).toBe(true);
    expect(await restoreReferenceValue("genre", value.id)).toMatchObject({ changed: false });
  });
});

describe("form schemas", () => {
  const parse = (kind: ReferenceKind, fields: Record<string, string>) => {
    const formData = new FormData();
    for (const [k, v] of Object.entries(fields)) formData.set(k, v);
    const submission = parseWithZod(formData, { schema: referenceActionSchema(kind) });
    return { ...submission, error: submission.status === "success" ? undefined : submission.error };
  };

  it("needs a name; a PRO needs a country, and its website must be a full https address", () => {
    expect(parse("genre", { intent: "create", name: "  " }).error).toEqual({ name: ["Enter a name."] });
    expect(parse("pro", { intent: "create", name: "X" }).error).toEqual({ country: ["Enter the country."] });
    const bad = "Enter a full https address, like https://www.ascap.com.";
    for (const website of ["www.ascap.com", "http://www.ascap.com", "https://", "ftp://ascap.com", "https://localhost"]) {
      expect(parse("pro", { intent: "create", name: "X", country: "Y", website }).error, website).toEqual({ website: [bad] });
    }
    expect(parse("pro", { intent: "create", name: "X", country: "Y", website: "https://www.ascap.com/about", code: "ascap" })).toMatchObject({
      status: "success",
      value: { website: "https://www.ascap.com/about", code: "ASCAP" },
    });
  });

  it("accepts a short code of letters, digits and hyphens only", () => {
    const message = "Use up to 12 letters, digits or hyphens, like ASCAP.";
    for (const code of ["AB CD", "ÄKM", "-X", "ABCDEFGHIJKLM"]) {
      expect(parse("pro", { intent: "create", name: "X", country: "Y", code }).error, code).toEqual({ code: [message] });
    }
    expect(parse("pro", { intent: "create", name: "X", country: "Y", code: "buma-2" })).toMatchObject({ value: { code: "BUMA-2" } });
  });

  it("ignores PRO fields for other kinds and tells the intents apart", () => {
    expect(parse("genre", { intent: "create", name: "Rock", country: "" })).toMatchObject({ status: "success", value: { intent: "create", name: "Rock" } });
    expect(parse("genre", { intent: "update", id: "12", name: "Rock" })).toMatchObject({ value: { intent: "update", id: 12 } });
    expect(parse("genre", { intent: "retire", id: "12" })).toMatchObject({ value: { intent: "retire", id: 12 } });
    expect(parse("genre", { intent: "retire", id: "abc" }).error).toEqual({ id: ["This value was not found."] });
    expect(referenceCreateSchema("genre").safeParse({ intent: "create", name: "x".repeat(81) }).success).toBe(false);
  });
});

describe("the pages' loader and action (admin.genres, admin.pros)", () => {
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
  /** What `data(...)` returned or threw: its payload and status. */
  const asData = (value: unknown) => value as { data: { intent: string; result: { error?: Record<string, string[]> } }; init: { status: number } };

  let adminCookie: string;
  let memberCookie: string;
  beforeAll(async () => {
    adminCookie = await sessionCookieFor((await createUser({ acctType: 2, roleId: 2 })).id);
    memberCookie = await sessionCookieFor((await createUser()).id);
  });

  it("sends a member to /login and changes nothing", async () => {
    const word = token();
    const loaded = (await call(genresRoute.loader, requestAs(memberCookie, "/admin/genres"))) as Response;
    expect(loaded.status).toBe(302);
    expect(loaded.headers.get("Location")).toBe("/login");
    const posted = (await call(genresRoute.action, post(memberCookie, "/admin/genres", { intent: "create", name: `${word} Sneaky` }))) as Response;
    expect(posted.headers.get("Location")).toBe("/login");
    expect((await listReferenceValues("genre", { q: word })).total).toBe(0);
  });

  it("creates, then keeps the search when retiring; a duplicate name comes back as a field error", async () => {
    const word = token();
    const created = (await call(genresRoute.action, post(adminCookie, "/admin/genres", { intent: "create", name: `${word} Grime` }))) as Response;
    expect(created.status).toBe(302);
    const value = (await listReferenceValues("genre", { q: word })).values[0]!;
    expect(created.headers.get("Location")).toBe(`/admin/genres?done=${value.id}`);

    const duplicate = asData(await call(genresRoute.action, post(adminCookie, "/admin/genres", { intent: "create", name: `${word} GRIME` })));
    expect(duplicate.init.status).toBe(400);
    expect(duplicate.data.result.error).toEqual({ name: [`“${word} Grime” is already in the genres list.`] });

    const retired = (await call(
      genresRoute.action,
      post(adminCookie, `/admin/genres?q=${word}&status=active&page=1`, { intent: "retire", id: String(value.id) }),
    )) as Response;
    expect(retired.headers.get("Location")).toMatch(new RegExp(`^/admin/genres\\?q=${word}&status=active&page=1&done=${value.id}-`));
    expect((await listReferenceValues("genre", { q: word, status: "retired" })).total).toBe(1);
  });

  it("answers 404 for a value of another kind, and a field error for a bad PRO website", async () => {
    const genre = await createReferenceValue("genre", { name: `${token()} Gqom` });
    const thrown = asData(await call(prosRoute.action, post(adminCookie, "/admin/pros", { intent: "retire", id: String(genre.id) })));
    expect(thrown.init.status).toBe(404);
    const bad = asData(await call(prosRoute.action, post(adminCookie, "/admin/pros", { intent: "create", name: "X", country: "Y", website: "http://x.org" })));
    expect(bad.init.status).toBe(400);
    expect(bad.data.result.error).toEqual({ website: ["Enter a full https address, like https://www.ascap.com."] });
  });

  it("loads a page of the list for an admin", async () => {
    const word = token();
    await createReferenceValue("pro", { name: `${word} Rights`, country: "Ghana", code: "GHAMRO" });
    const loaded = (await call(prosRoute.loader, requestAs(adminCookie, `/admin/pros?q=${word}`))) as Awaited<ReturnType<typeof prosRoute.loader>>;
    expect(loaded.kind).toBe("pro");
    expect(loaded.query).toEqual({ q: word, status: "all", page: 1 });
    expect(loaded.list.values).toMatchObject([{ name: `${word} Rights`, country: "Ghana", code: "GHAMRO", profileCount: 0 }]);
  });
});
