import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { centsToDollarsText, CreateProfileSchema, profileDetailsSchema, toDetailsInput } from "./profile-schemas";

/** The field errors of a submission (none when it succeeded). */
const errorsOf = (submission: { status?: string; error?: Record<string, string[] | null> | null }) =>
  (submission.status === "error" ? submission.error : undefined) ?? {};

function form(entries: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) for (const v of [value].flat()) data.append(name, v);
  return data;
}

describe("rate amounts (money.ts's one parser)", () => {
  const rateOf = (amount: string) =>
    parseWithZod(
      form({ intent: "details", name: "Mia", username: "mia", "rates[0].label": "Mixing", "rates[0].amount": amount, "rates[0].unit": "per_song" }),
      {
        schema: profileDetailsSchema("musician"),
      },
    );
  const centsOf = (amount: string) => {
    const submission = rateOf(amount);
    return submission.status === "success" ? toDetailsInput("musician", submission.value).rates?.[0]?.amount : errorsOf(submission)["rates[0].amount"];
  };

  it.each([
    ["150", 15000],
    ["150.50", 15050],
    ["150.5", 15050],
    ["0.07", 7],
    ["$99.99", 9999],
    [" 12.30 ", 1230],
    ["$1,500", 150000],
    ["0.29", 29],
    ["1.15", 115],
  ])("reads %j as %i cents", (input, cents) => {
    expect(centsOf(input)).toBe(cents);
  });

  it.each(["1e3", "-5", "12.345", "abc", "1.", ".5", "+5", "Infinity", "0x10", "1234567890"])("refuses %j", (input) => {
    expect(centsOf(input)).toEqual(["Enter an amount in dollars, like 150 or 150.50."]);
  });

  it.each(["12,50", "10,00", "1,00,000"])("refuses %j with the comma's own message (never $1,250.00)", (input) => {
    expect(centsOf(input)).toEqual(["Use a point for cents, such as 10.00: a comma only separates thousands, as in 1,000.00."]);
  });

  it("writes cents back as the amount field shows them", () => {
    expect(centsToDollarsText(15050)).toBe("150.50");
    expect(centsToDollarsText(15000)).toBe("150");
    expect(centsToDollarsText(7)).toBe("0.07");
  });
});

describe("CreateProfileSchema", () => {
  const parse = (username: string) => parseWithZod(form({ name: "The Band", username }), { schema: CreateProfileSchema });

  it.each(["abc", "the-band", "band-2024", "a1-b2-c3", "x".repeat(30)])("accepts the username %j", (username) => {
    expect(parse(username).status).toBe("success");
  });

  it.each([
    ["ab", "Use at least 3 characters."],
    ["x".repeat(31), "Use at most 30 characters."],
    ["The-Band", "Use only lower-case letters"],
    ["the--band", "Use only lower-case letters"],
    ["-band", "Use only lower-case letters"],
    ["band-", "Use only lower-case letters"],
    ["the band", "Use only lower-case letters"],
    ["bänd", "Use only lower-case letters"],
    ["profiles", "That username is reserved"],
    ["admin", "That username is reserved"],
    ["songwriters", "That username is reserved"],
  ])("refuses the username %j", (username, message) => {
    const submission = parse(username);
    expect(submission.status).toBe("error");
    expect(errorsOf(submission).username?.join(" ")).toContain(message);
  });

  it("asks for a name and a username", () => {
    const submission = parseWithZod(form({}), { schema: CreateProfileSchema });
    expect(errorsOf(submission)).toMatchObject({ name: ["Enter a name."], username: ["Choose a username."] });
  });
});

describe("profileDetailsSchema", () => {
  const base = { intent: "details", name: "Mia", username: "mia" };

  it("drops empty spare rows and turns amounts into cents", () => {
    const submission = parseWithZod(
      form({
        ...base,
        "rates[0].label": "Mixing",
        "rates[0].amount": "150.50",
        "rates[0].unit": "per_song",
        "rates[1].label": "",
        "rates[1].amount": "",
        "rates[1].unit": "",
        "credits[0].title": "Night Drive",
        "credits[0].role": "Mix engineer",
        "credits[0].year": "2021",
        "credits[1].title": "",
        "links[0].label": "Site",
        "links[0].url": "https://example.com",
        "links[1].url": "",
        values_genre: ["3", "7"],
        values_skill: "5",
      }),
      { schema: profileDetailsSchema("musician") },
    );
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    const input = toDetailsInput("musician", submission.value);
    expect(input.rates).toEqual([{ label: "Mixing", amount: 15050, unit: "per_song" }]);
    expect(input.credits).toEqual([{ title: "Night Drive", role: "Mix engineer", year: 2021 }]);
    expect(input.links).toEqual([{ label: "Site", url: "https://example.com" }]);
    expect(input.sampleLinks).toEqual([]);
    expect(input.values).toEqual({ genre: [3, 7], skill: [5], instrument: [], language: [] });
    expect(input.bio).toBe("");
  });

  it("keeps each error beside the row it belongs to, even after empty rows", () => {
    const submission = parseWithZod(
      form({
        ...base,
        "rates[0].label": "",
        "rates[0].amount": "",
        "rates[1].label": "Mastering",
        "rates[1].amount": "1e3",
        "rates[1].unit": "per_song",
        "rates[2].label": "Session",
        "rates[2].amount": "-5",
        "rates[2].unit": "per_hour",
        "rates[3].label": "Day",
        "rates[3].amount": "12.345",
        "rates[3].unit": "weekly",
        "credits[0].title": "Old",
        "credits[0].year": "1899",
        "credits[1].title": "Future",
        "credits[1].year": String(new Date().getFullYear() + 2),
        "credits[2].role": "Producer",
        "links[0].url": "javascript:alert(1)",
        "sampleLinks[0].url": "ftp://example.com/a.mp3",
      }),
      { schema: profileDetailsSchema("musician") },
    );
    expect(submission.status).toBe("error");
    const error = errorsOf(submission);
    expect(error["rates[0].amount"]).toBeUndefined();
    expect(error["rates[1].amount"]).toEqual(["Enter an amount in dollars, like 150 or 150.50."]);
    expect(error["rates[2].amount"]).toEqual(["Enter an amount in dollars, like 150 or 150.50."]);
    expect(error["rates[3].amount"]).toEqual(["Enter an amount in dollars, like 150 or 150.50."]);
    expect(error["rates[3].unit"]).toEqual(["Choose what the rate is for."]);
    expect(error["credits[0].year"]?.[0]).toMatch(/^Enter a year between 1900 and \d{4}\.$/);
    expect(error["credits[1].year"]?.[0]).toMatch(/^Enter a year between 1900/);
    expect(error["credits[2].title"]).toEqual(["Enter the title of the work."]);
    expect(error["links[0].url"]).toEqual(["Enter a full web address starting with https:// or http://."]);
    expect(error["sampleLinks[0].url"]).toEqual(["Enter a full web address starting with https:// or http://."]);
  });

  it("limits the number of rows and the text lengths", () => {
    const entries: Record<string, string> = { ...base, bio: "x".repeat(5001), location: "y".repeat(121), name: "n".repeat(101) };
    for (let i = 0; i < 11; i++) {
      entries[`links[${i}].url`] = `https://example.com/${i}`;
      entries[`rates[${i}].label`] = `Rate ${i}`;
      entries[`rates[${i}].amount`] = "10";
      entries[`rates[${i}].unit`] = "per_hour";
    }
    const submission = parseWithZod(form(entries), { schema: profileDetailsSchema("studio") });
    expect(errorsOf(submission)).toMatchObject({
      links: ["Add at most 10 links."],
      rates: ["Add at most 10 rates."],
      bio: ["The bio can be at most 5000 characters."],
      location: ["The location can be at most 120 characters."],
      name: ["The name can be at most 100 characters."],
    });
  });

  it("gives artists no rates, credits or sample links, and only genres", () => {
    const submission = parseWithZod(form({ ...base, "rates[0].label": "Gig", "rates[0].amount": "oops", values_genre: "4", values_skill: "9" }), {
      schema: profileDetailsSchema("artist"),
    });
    expect(submission.status).toBe("success");
    if (submission.status !== "success") return;
    const input = toDetailsInput("artist", submission.value);
    expect(input.values).toEqual({ genre: [4] });
    expect(input.rates).toBeUndefined();
  });

  it("refuses value ids that are not numbers", () => {
    const submission = parseWithZod(form({ ...base, values_genre: ["1", "x"] }), { schema: profileDetailsSchema("artist") });
    expect(errorsOf(submission)["values_genre[1]"]).toEqual(["Choose from the list."]);
  });
});
