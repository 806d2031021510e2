import crypto from "node:crypto";
import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { countQueries, db } from "~/db/client.server";
import { venues } from "~/db/schema";
import { useTestDatabase } from "../../../tests/helpers/database";
import { ManagerActionSchema, parseIndustryListQuery, splitUsernames, VenueActionSchema, type VenueInput } from "./industry-schemas";
import { IndustryNotFoundError } from "./industry.server";
import { createVenue, deleteVenue, getVenue, listVenues, updateVenue } from "./venues.server";

useTestDatabase();

const token = () => `t${crypto.randomBytes(4).toString("hex")}`;

async function caught(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (error: unknown) => error,
  );
}

describe("venues", () => {
  it("creates, lists by name in one query, and searches name, city or country", async () => {
    const word = token();
    const ryman = await createVenue({ name: `${word} Ryman`, city: " Nashville ", country: "United States", capacity: 2362, email: "box@ryman.test" });
    expect(ryman).toMatchObject({ city: "Nashville", capacity: 2362, phone: "", website: "" });
    await createVenue({ name: `${word} Paradiso`, city: "Amsterdam", country: `${word}-Netherlands` });
    await createVenue({ name: `${word} Café_Oto`, city: "London", country: "United Kingdom" });

    const { result, count } = await countQueries(() => listVenues({ q: word }));
    expect(count).toBe(1);
    expect(result.rows.map((v) => v.name)).toEqual([`${word} Café_Oto`, `${word} Paradiso`, `${word} Ryman`]);
    expect(result.rows[2]).toMatchObject({ id: ryman.id, capacity: 2362, email: "box@ryman.test" });

    const names = async (q: string) => (await listVenues({ q })).rows.map((v) => v.name);
    expect(await names(`${word}-NETHERLANDS`)).toEqual([`${word} Paradiso`]);
    expect(await names(`${word} café_`)).toEqual([`${word} Café_Oto`]);
    expect(await names(`${word} Caf%Oto`)).toEqual([]);
    const second = await listVenues({ q: word, page: 2, pageSize: 2 });
    expect(second).toMatchObject({ total: 3, pageCount: 2 });
    expect(second.rows.map((v) => v.name)).toEqual([`${word} Ryman`]);
  });

  it("finds venues by city (with a search word of its own)", async () => {
    const word = token();
    await createVenue({ name: "Bluebird", city: `${word}ville` });
    expect((await listVenues({ q: `${word}VILLE` })).rows.map((v) => v.name)).toEqual(["Bluebird"]);
  });

  it("updates (clearing the capacity) and deletes; unknown ids are not found", async () => {
    const venue = await createVenue({ name: `${token()} Troubadour`, capacity: 500 });
    const input: VenueInput = { name: "The Troubadour", city: "West Hollywood", country: "United States", website: "http://troubadour.test" };
    expect(await updateVenue(venue.id, input)).toMatchObject({ name: "The Troubadour", capacity: null, website: "http://troubadour.test" });
    expect(await getVenue(venue.id)).toMatchObject({ city: "West Hollywood" });
    expect((await deleteVenue(venue.id)).name).toBe("The Troubadour");
    expect(await caught(getVenue(venue.id))).toBeInstanceOf(IndustryNotFoundError);
    expect(await caught(updateVenue(venue.id, input))).toBeInstanceOf(IndustryNotFoundError);
    expect(await caught(deleteVenue(venue.id))).toBeInstanceOf(IndustryNotFoundError);
  });

  it("the database refuses a capacity of 0 or less whatever the caller", async () => {
    await expect(db().insert(venues).values({ name: "Broken", capacity: 0 })).rejects.toThrow();
  });
});

describe("form schemas", () => {
  const parse = (schema: typeof VenueActionSchema | typeof ManagerActionSchema, fields: Record<string, string>) => {
    const formData = new FormData();
    for (const [k, v] of Object.entries(fields)) formData.set(k, v);
    const submission = parseWithZod(formData, { schema });
    return submission.status === "success" ? { value: submission.value } : { error: submission.error };
  };
  const capacityError = { error: { capacity: ["Enter the capacity as a whole number above 0, like 250."] } };

  it("takes a capacity of whole numbers above 0 only, or none", () => {
    for (const capacity of ["-3", "abc", "0", "2.5", "1e3", "12 000"]) {
      expect(parse(VenueActionSchema, { intent: "create", name: "V", capacity }), capacity).toEqual(capacityError);
    }
    expect(parse(VenueActionSchema, { intent: "create", name: "V", capacity: "2000000" })).toEqual({
      error: { capacity: ["Enter a capacity of at most 1,000,000."] },
    });
    expect(parse(VenueActionSchema, { intent: "create", name: "V", capacity: " 250 " })).toMatchObject({ value: { capacity: 250 } });
    expect(parse(VenueActionSchema, { intent: "create", name: "V", capacity: "" })).toEqual({ value: { intent: "create", name: "V" } });
  });

  it("needs a name and checks email, phone and website when given", () => {
    expect(parse(VenueActionSchema, { intent: "create", name: " " })).toEqual({ error: { name: ["Enter a name."] } });
    expect(parse(ManagerActionSchema, { intent: "create", name: "M", email: "nope", phone: "call me", website: "example.com" })).toEqual({
      error: {
        email: ["Enter a valid email address, like name@example.com."],
        phone: ["Enter a phone number of digits, spaces and + ( ) - . only, like +1 615 555 0100."],
        website: ["Enter a full web address, like https://example.com."],
      },
    });
    expect(
      parse(ManagerActionSchema, { intent: "update", id: "4", name: "M", email: "m@x.test", phone: "(615) 555-0100", website: "http://x.test/a" }),
    ).toMatchObject({ value: { id: 4, phone: "(615) 555-0100", website: "http://x.test/a", artists: [] } });
    expect(parse(ManagerActionSchema, { intent: "delete", id: "x" })).toEqual({ error: { id: ["This entry was not found."] } });
  });

  it("splits usernames on commas, spaces and new lines, dropping @ and repeats", () => {
    expect(splitUsernames(" midnight-owls, @Larks\nmidnight-OWLS,,\r\n  echo ;delta ")).toEqual(["midnight-owls", "Larks", "echo", "delta"]);
    expect(splitUsernames("")).toEqual([]);
    const many = Array.from({ length: 51 }, (_, i) => `a${i}`).join(",");
    expect(parse(ManagerActionSchema, { intent: "create", name: "M", artists: many })).toEqual({ error: { artists: ["Enter at most 50 artists."] } });
  });

  it("reads a malformed list query as no search and page 1", () => {
    expect(parseIndustryListQuery(new URLSearchParams("q=%20ryman%20&page=zero"))).toEqual({ q: "ryman", page: 1 });
  });
});
