// `npm run lock:fix` — run after every `npm install` on this workplace's machines.
// The registry here serves only this platform's optional binaries (others answer 404), so npm writes
// no lock entries for them, and `npm ci` then refuses the lock ("Missing: <name>@ from lock file").
// This adds an entry (name, version, optional) for every optional dependency the lock names but lacks;
// npm skips them on install when they do not fit the platform or cannot be fetched.
import fs from "node:fs";

const file = new URL("../package-lock.json", import.meta.url);
const lock = JSON.parse(fs.readFileSync(file, "utf8"));
const packages = lock.packages;
let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const hoisted = `node_modules/${name}`;
    const nested = path ? `${path}/node_modules/${name}` : hoisted;
    if (packages[hoisted] || packages[nested]) continue;
    packages[hoisted] = { version: String(range).replace(/^[\^~=]/, ""), optional: true, ...(meta.dev ? { dev: true } : {}) };
    added += 1;
  }
}
fs.writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lock:fix: ${added} optional entr${added === 1 ? "y" : "ies"} added`);
