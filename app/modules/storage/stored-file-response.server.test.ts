import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storage } from "./storage.server";
import { storedFileResponse } from "./stored-file-response.server";

const KEY = "test/file-response/take.wav";
const bytes = Buffer.from("0123456789abcdefghij");

beforeAll(async () => {
  await storage().put(KEY, bytes);
});
afterAll(() => storage().delete(KEY));

const get = (range?: string, method = "GET", headers: Record<string, string> = {}) => new Request("http://localhost/storage/x", { method, headers: { ...headers, ...(range ? { Range: range } : {}) } });

describe("storedFileResponse", () => {
  it("answers the whole file, as an attachment when named, saying it serves ranges", async () => {
    const response = await storedFileResponse(get(), KEY, { contentType: "audio/wav", download: "Mix “v2”.wav" });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("content-length")).toBe("20");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="Mix _v2_.wav"; filename*=UTF-8''Mix%20%E2%80%9Cv2%E2%80%9D.wav`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answers a byte range, an open range and a suffix range with 206; an unsatisfiable one with 416", async () => {
    const part = await storedFileResponse(get("bytes=2-5"), KEY, { contentType: "audio/wav" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 2-5/20");
    expect(await part.text()).toBe("2345");
    const open = await storedFileResponse(get("bytes=18-"), KEY, { contentType: "audio/wav" });
    expect([open.status, await open.text()]).toEqual([206, "ij"]);
    const suffix = await storedFileResponse(get("bytes=-3"), KEY, { contentType: "audio/wav" });
    expect([suffix.status, suffix.headers.get("content-range"), await suffix.text()]).toEqual([206, "bytes 17-19/20", "hij"]);
    const past = await storedFileResponse(get("bytes=20-"), KEY, { contentType: "audio/wav" });
    expect([past.status, past.headers.get("content-range")]).toEqual([416, "bytes */20"]);
    expect(part.headers.get("content-disposition")).toBeNull();
  });

  it("answers a browser that has the file already with 304, by its ETag", async () => {
    const first = await storedFileResponse(get(), KEY, { contentType: "audio/wav" });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^".+"$/);
    const again = await storedFileResponse(get(undefined, "GET", { "If-None-Match": etag }), KEY, { contentType: "audio/wav" });
    expect([again.status, again.body]).toEqual([304, null]);
  });

  it("answers HEAD without a body, and a missing file as Not Found (or as the caller says)", async () => {
    const head = await storedFileResponse(get(undefined, "HEAD"), KEY, { contentType: "audio/wav" });
    expect([head.status, head.headers.get("content-length"), head.body]).toEqual([200, "20", null]);
    const missing = await storedFileResponse(get(), "test/file-response/gone.wav", { contentType: "audio/wav" }).catch((thrown: unknown) => thrown);
    expect(missing).toMatchObject({ init: { status: 404 } });
    const own = await storedFileResponse(get(), "test/file-response/gone.wav", { contentType: "audio/wav", onMissing: () => new Response("gone", { status: 410 }) });
    expect(own.status).toBe(410);
  });
});
