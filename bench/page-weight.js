// @ts-check
// First-load JavaScript of a page: every script the HTML loads or preloads (the entry, the route modules and
// their static imports, which React Router lists as modulepreload), gzipped at level 9 and summed. Chunks a
// page imports lazily (the charts) are not first load and are not counted.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { BASE, login, startServer } from "./http.js";

/** @param {string} html @returns {string[]} the same-origin script URLs the page loads on first load */
export function firstLoadScripts(html) {
  const urls = new Set();
  for (const match of html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)) urls.add(match[1]);
  for (const match of html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(match[1]);
  for (const match of html.matchAll(/<link[^>]*href="([^"]+)"[^>]*rel="modulepreload"/g)) urls.add(match[1]);
  // The inline module that starts the app imports the entry (and the manifest) by URL.
  for (const match of html.matchAll(/import\s*(?:[\w{}\s,*]+from\s*)?\(?\s*"(\/assets\/[^"]+\.js)"/g)) urls.add(match[1]);
  return [...urls].filter((url) => url.startsWith("/"));
}

/** @param {string} urlPath @param {Record<string, string>} headers */
export async function firstLoadJs(urlPath, headers = {}) {
  const response = await fetch(`${BASE}${urlPath}`, { headers });
  if (!response.ok) throw new Error(`${urlPath}: ${response.status}`);
  const scripts = firstLoadScripts(await response.text());
  let gzipBytes = 0;
  let rawBytes = 0;
  for (const url of scripts) {
    const body = Buffer.from(await (await fetch(`${BASE}${url}`)).arrayBuffer());
    rawBytes += body.length;
    gzipBytes += zlib.gzipSync(body, { level: 9 }).length;
  }
  return { files: scripts.length, gzipBytes, rawBytes, scripts };
}

/** Starts the production server (the embedded PostgreSQL) with the demo data and weighs the pages people open first. */
export async function runPageWeight() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "backline-weight-"));
  const server = await startServer(dataDir, "");
  try {
    const member = await login("member@example.com");
    const admin = await login("admin@example.com");
    const memberId = /^\/member\/(\d+)\//.exec(member.landing)?.[1] ?? "";
    /** @type {Array<{ name: string, path: string, headers: Record<string, string>, goalKb: number }>} */
    const pages = [
      { name: "GET /login", path: "/login", headers: {}, goalKb: 110 },
      { name: "member dashboard", path: member.landing, headers: { cookie: member.cookie }, goalKb: 150 },
      { name: "admin dashboard", path: admin.landing, headers: { cookie: admin.cookie }, goalKb: 0 },
      { name: "directory page", path: `/member/${memberId}/musicians`, headers: { cookie: member.cookie }, goalKb: 0 },
    ];
    const results = [];
    for (const page of pages) results.push({ name: page.name, path: page.path, goalKb: page.goalKb, ...(await firstLoadJs(page.path, page.headers)) });
    return { kind: "page-weight", pages: results };
  } finally {
    server.kill("SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
