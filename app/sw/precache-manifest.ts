// Build time only (sw.vite.config.ts): the list of URLs the service worker precaches at install,
// and the build hash its cache names carry, so a new deploy installs a new worker with new caches.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { OFFLINE_PATH } from "./cache-rules";

export interface PrecacheManifest {
  /** Changes whenever any built asset changes (names and contents). */
  version: string;
  /** `/assets/*` (sorted), then the offline page. */
  urls: string[];
}

export interface BuiltFile {
  /** Relative to build/client/assets, with forward slashes. */
  path: string;
  /** A digest of the file's contents. */
  digest: string;
}

/** Source maps are never shipped to the cache (nor, by default, built). */
const SKIPPED = /\.map$/;

export function precacheManifest(files: readonly BuiltFile[]): PrecacheManifest {
  const kept = files.filter((f) => !SKIPPED.test(f.path)).toSorted((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const hash = crypto.createHash("sha256");
  for (const file of kept) hash.update(`${file.path}\0${file.digest}\n`);
  return {
    version: hash.digest("hex").slice(0, 16),
    urls: [...kept.map((f) => `/assets/${f.path.split("/").map(encodeURIComponent).join("/")}`), OFFLINE_PATH],
  };
}

/** Every file under `<clientDir>/assets`, hashed; fails when the client build is missing. */
export function readBuiltAssets(clientDir: string): BuiltFile[] {
  const root = path.join(clientDir, "assets");
  if (!fs.existsSync(root)) {
    throw new Error(`No client build in ${root}: run \`react-router build\` before building the service worker.`);
  }
  const files: BuiltFile[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile()) {
        files.push({
          path: path.relative(root, full).split(path.sep).join("/"),
          digest: crypto.createHash("sha256").update(fs.readFileSync(full)).digest("hex"),
        });
      }
    }
  };
  walk(root);
  return files;
}
