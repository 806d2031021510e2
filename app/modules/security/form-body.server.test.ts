import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FORM_BODY_MESSAGES, MAX_LIST_INDEX, parseForm, readForm } from "./form-body.server";

const post = (body: BodyInit | null, type?: string) =>
  new Request("http://localhost/x", { method: "POST", body, headers: type ? { "Content-Type": type } : {} });

async function statusOf(promise: Promise<unknown>): Promise<{ status: number; message: string } | "read"> {
  try {
    await promise;
    return "read";
  } catch (error) {
    const thrown = error as { init?: { status?: number }; data?: { message?: string } };
    return { status: thrown.init?.status ?? 0, message: thrown.data?.message ?? "" };
  }
}

describe("readForm", () => {
  it("reads urlencoded and multipart forms", async () => {
    const form = await readForm(post("a=1&b=2", "application/x-www-form-urlencoded"));
    expect(form.get("b")).toBe("2");
    const multipart = new FormData();
    multipart.set("name", "Ada");
    const request = new Request("http://localhost/x", { method: "POST", body: multipart });
    expect((await readForm(request)).get("name")).toBe("Ada");
  });

  it.each([
    ["no content type", null],
    ["JSON", "application/json"],
    ["plain text", "text/plain"],
    ["a form type as a prefix of another", "application/x-www-form-urlencodedx"],
  ])("refuses %s with 415", async (_label, type) => {
    const result = await statusOf(readForm(post('{"a":1}', type ?? undefined)));
    expect(result).toEqual({ status: 415, message: FORM_BODY_MESSAGES.unsupportedType });
  });

  it("refuses multipart without a boundary, or cut short, with 400", async () => {
    expect(await statusOf(readForm(post("--x\r\n", "multipart/form-data")))).toEqual({
      status: 400,
      message: FORM_BODY_MESSAGES.unreadable,
    });
    const truncated = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nhal';
    expect(await statusOf(readForm(post(truncated, "multipart/form-data; boundary=b")))).toMatchObject({ status: 400 });
  });

  it("caps list indexes before anything builds an array from them", async () => {
    const ok = await readForm(post(`links[${MAX_LIST_INDEX}].url=x&genres[3]=1`, "application/x-www-form-urlencoded"));
    expect(ok.get(`links[${MAX_LIST_INDEX}].url`)).toBe("x");
    for (const name of [`links[${MAX_LIST_INDEX + 1}].url`, "links[99999999].url", "a[0].b[100000000000000000000000]"]) {
      const started = performance.now();
      const result = await statusOf(readForm(post(`${encodeURIComponent(name)}=x`, "application/x-www-form-urlencoded")));
      expect(result).toEqual({ status: 400, message: FORM_BODY_MESSAGES.tooManyRows });
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });

  it("refuses a form with too many fields", async () => {
    const body = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join("&");
    expect(await statusOf(readForm(post(body, "application/x-www-form-urlencoded")))).toMatchObject({ status: 400 });
  });
});

describe("parseForm", () => {
  const schema = z.object({
    subject: z.string().min(1, "Enter a subject."),
    links: z.array(z.object({ url: z.string() })).default([]),
    body: z.string().optional(),
  });
  const form = (entries: Record<string, string>) => {
    const data = new FormData();
    for (const [k, v] of Object.entries(entries)) data.set(k, v);
    return data;
  };

  it("passes clean input through to the form's schema", () => {
    const submission = parseForm(form({ subject: "Hi", "links[0].url": "https://x.example", body: "line 1\r\n\tline 2" }), { schema });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value.links[0]?.url).toBe("https://x.example");
  });

  it("puts a message beside each field that holds a control character, list rows included", () => {
    const submission = parseForm(form({ subject: "a\u0000b", "links[1].url": "x\u0007", body: "ok" }), { schema });
    expect(submission.status).toBe("error");
    const reply = submission.reply();
    expect(reply.error?.subject).toEqual([FORM_BODY_MESSAGES.controlCharacters]);
    expect(reply.error?.["links[1].url"]).toEqual([FORM_BODY_MESSAGES.controlCharacters]);
    expect(reply.error?.body).toBeUndefined();
    // The values are kept, so the page shows the form as it was sent.
    expect(reply.initialValue?.subject).toBe("a\u0000b");
  });
});
