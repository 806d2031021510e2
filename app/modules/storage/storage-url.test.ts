import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadEnv } from "~/env.server";
import { describeStorage, parseStorageUrl } from "./storage-url";

describe("STORAGE_URL", () => {
  it("names a folder with file:, relative or absolute", () => {
    expect(parseStorageUrl("file:./storage")).toEqual({ driver: "file", root: "./storage" });
    expect(parseStorageUrl("file:/data/storage")).toEqual({ driver: "file", root: "/data/storage" });
    expect(parseStorageUrl("file:///data/storage")).toEqual({ driver: "file", root: "/data/storage" });
    expect(() => parseStorageUrl("file://host/data")).toThrow(/folder on this machine/);
    expect(() => parseStorageUrl("file:")).toThrow(/needs a folder/);
  });

  it("names a bucket with s3://, its endpoint, region, path style, credentials and key prefix", () => {
    expect(parseStorageUrl("s3://backline-files?endpoint=http://127.0.0.1:9000&region=eu-west-1&forcePathStyle=true")).toEqual({
      driver: "s3",
      bucket: "backline-files",
      prefix: "",
      endpoint: "http://127.0.0.1:9000",
      region: "eu-west-1",
      forcePathStyle: true,
      credentials: null,
    });
    const r2 = parseStorageUrl("s3://AKID:se%2Fcret@media/prod/files?endpoint=https://acct.r2.cloudflarestorage.com&region=auto");
    expect(r2).toMatchObject({ bucket: "media", prefix: "prod/files/", region: "auto", forcePathStyle: false, credentials: { accessKeyId: "AKID", secretAccessKey: "se/cret" } });
    expect(parseStorageUrl("s3://media")).toMatchObject({ endpoint: null, region: "us-east-1" });
    expect(describeStorage(r2)).toBe("S3 bucket media/prod/files/ at https://acct.r2.cloudflarestorage.com (auto)");
    expect(describeStorage(r2)).not.toContain("cret");
  });

  it("refuses what would lose files later, saying why", () => {
    expect(() => parseStorageUrl("./storage")).toThrow(/file: \(a folder\) or s3:\/\//);
    expect(() => parseStorageUrl("s3://Bad_Bucket")).toThrow(/not a bucket name/);
    expect(() => parseStorageUrl("s3://media?endpiont=http://x")).toThrow(/unknown parameter "endpiont"/);
    expect(() => parseStorageUrl("s3://media?endpoint=127.0.0.1:9000")).toThrow(/endpoint must be/);
    expect(() => parseStorageUrl("s3://media?forcePathStyle=yes")).toThrow(/true or false/);
    expect(() => parseStorageUrl("s3://AKID@media")).toThrow(/both the access key and its secret/);
    expect(() => parseStorageUrl("s3://media:9000")).toThrow(/endpoint parameter/);
    expect(() => parseStorageUrl("s3://media/../x")).not.toThrow(); // URL parsing removes dot segments
    expect(parseStorageUrl("s3://media/../x")).toMatchObject({ prefix: "x/" });
  });

  it("defaults to the folder the app always used; an install that set STORAGE_DIR keeps it", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-env-"));
    const base = { APP_ENV: "local", DATA_DIR: dataDir } as NodeJS.ProcessEnv;
    expect(loadEnv(base).STORAGE_URL).toBe("file:./storage");
    expect(loadEnv({ ...base, STORAGE_DIR: "/data/storage" }).STORAGE_URL).toBe("file:/data/storage");
    expect(loadEnv({ ...base, STORAGE_DIR: "/data/storage", STORAGE_URL: "s3://media" }).STORAGE_URL).toBe("s3://media");
    expect(() => loadEnv({ ...base, STORAGE_URL: "s3://media?region=EU" })).toThrow(/STORAGE_URL: "EU" is not a region name/);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
});
