import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storedFileResponse } from "./file-response.server";

let dir: string;
let file: string;
const bytes = Buffer.from("0123456789abcdefghij");

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "backline-file-response-"));
  file = path.join(dir, "take.wav");
  await fs.writeFile(file, bytes);
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

const get = (range?: string, method = "GET") => new Request("http://localhost/storage/x", { method, headers: range ? { Range: range } : {} });

describe("storedFileResponse", () => {
  it("answers the whole file, as an attachment when named, saying it serves ranges", async () => {
    const response = await storedFileResponse(get(), file, { contentType: "audio/wav", download: "Mix “v2”.wav" });
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("content-length")).toBe("20");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="Mix _v2_.wav"; filename*=UTF-8''Mix%20%E2%80%9Cv2%E2%80%9D.wav`);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("answers a byte range, an open range and a suffix range with 206; an unsatisfiable one with 416", async () => {
    const part = await storedFileResponse(get("bytes=2-5"), file, { contentType: "audio/wav" });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 2-5/20");
    expect(await part.text()).toBe("2345");
    const open = await storedFileResponse(get("bytes=18-"), file, { contentType: "audio/wav" });
    expect([open.status, await open.text()]).toEqual([206, "ij"]);
    const suffix = await storedFileResponse(get("bytes=-3"), file, { contentType: "audio/wav" });
    expect([suffix.status, suffix.headers.get("content-range"), await suffix.text()]).toEqual([206, "bytes 17-19/20", "hij"]);
    const past = await storedFileResponse(get("bytes=20-"), file, { contentType: "audio/wav" });
    expect([past.status, past.headers.get("content-range")]).toEqual([416, "bytes */20"]);
    expect(part.headers.get("content-disposition")).toBeNull();
  });

  it("answers HEAD without a body, and a file gone from the disk as Not Found", async () => {
    const head = await storedFileResponse(get(undefined, "HEAD"), file, { contentType: "audio/wav" });
    expect([head.status, head.headers.get("content-length"), head.body]).toEqual([200, "20", null]);
    const missing = await storedFileResponse(get(), path.join(dir, "gone.wav"), { contentType: "audio/wav" }).catch((thrown: unknown) => thrown);
    expect(missing).toMatchObject({ init: { status: 404 } });
  });
});
