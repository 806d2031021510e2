import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { precacheManifest, readBuiltAssets } from "./precache-manifest";

describe("precacheManifest", () => {
  it("lists every built asset as /assets/… in a stable order, then the offline page", () => {
    const manifest = precacheManifest([
      { path: "root-B2.js", digest: "2" },
      { path: "app-A1.css", digest: "1" },
      { path: "fonts/inter-C3.woff2", digest: "3" },
      { path: "root-B2.js.map", digest: "4" },
    ]);
    expect(manifest.urls).toEqual(["/assets/app-A1.css", "/assets/fonts/inter-C3.woff2", "/assets/root-B2.js", "/offline"]);
    expect(manifest.version).toMatch(/^[0-9a-f]{16}$/);
  });

  it("gives the same build the same version whatever the listing order, and a changed build a new one", () => {
    const a = { path: "a-1.js", digest: "aa" };
    const b = { path: "b-2.js", digest: "bb" };
    expect(precacheManifest([a, b]).version).toBe(precacheManifest([b, a]).version);
    expect(precacheManifest([a, { ...b, digest: "bc" }]).version).not.toBe(precacheManifest([a, b]).version);
    expect(precacheManifest([a, { ...b, path: "b-3.js" }]).version).not.toBe(precacheManifest([a, b]).version);
    expect(precacheManifest([a]).version).not.toBe(precacheManifest([a, b]).version);
  });

  it("encodes file names as URLs", () => {
    expect(precacheManifest([{ path: "odd name#1.js", digest: "x" }]).urls[0]).toBe("/assets/odd%20name%231.js");
  });
});

describe("readBuiltAssets", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("reads build/client/assets recursively, hashing contents, and ignores the rest of the client build", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-sw-"));
    fs.mkdirSync(path.join(dir, "assets/nested"), { recursive: true });
    fs.writeFileSync(path.join(dir, "assets/root-X.js"), "console.log(1)");
    fs.writeFileSync(path.join(dir, "assets/nested/font-Y.woff2"), "font");
    fs.writeFileSync(path.join(dir, "favicon.svg"), "<svg/>");
    fs.writeFileSync(path.join(dir, "sw.js"), "old worker");

    const files = readBuiltAssets(dir).toSorted((a, b) => a.path.localeCompare(b.path));
    expect(files.map((f) => f.path)).toEqual(["nested/font-Y.woff2", "root-X.js"]);
    const before = precacheManifest(files).version;

    fs.writeFileSync(path.join(dir, "assets/root-X.js"), "console.log(2)");
    expect(precacheManifest(readBuiltAssets(dir)).version).not.toBe(before);
  });

  it("fails with a clear message when the client build is missing", () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-sw-"));
    expect(() => readBuiltAssets(dir!)).toThrow(/run `react-router build`/);
  });
});
