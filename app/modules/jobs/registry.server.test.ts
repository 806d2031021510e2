import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useTestDatabase } from "../../../tests/helpers/database";
import { enqueueJob, getJobStatus, registeredJobNames, stopJobWorkers } from "./queue.server";
import { JOBS, registerJobs } from "./registry.server";

useTestDatabase();
afterAll(() => stopJobWorkers());

const APP = path.resolve(__dirname, "../..");
const REGISTRY = path.join(APP, "modules/jobs/registry.server.ts");
const QUEUE = path.join(APP, "modules/jobs/queue.server.ts");

/** The product's source files (tests excluded). */
function sourceFiles(dir = APP): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** A source file as the `~/…` specifier that imports it. */
const specifierOf = (file: string) =>
  `~/${path
    .relative(APP, file)
    .replace(/\\/g, "/")
    .replace(/\.tsx?$/, "")}`;

describe("the job registry", () => {
  it("lists each job once, and registers a handler for every one, as boot() does", () => {
    const names = JOBS.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.length).toBeGreaterThan(0);
    registerJobs();
    registerJobs(); // idempotent
    for (const name of names) expect(registeredJobNames()).toContain(name);
  });

  it("accepts every job name: each is enqueued, waits in its own queue, with the retry policy its feature set", async () => {
    registerJobs();
    for (const job of JOBS) {
      // Far in the future, so that nothing runs it: the handler's own tests run it with real data.
      const id = await enqueueJob(job.name, { registryCheck: true }, { startAfterSeconds: 24 * 60 * 60 });
      expect(id, job.name).toBeTruthy();
      const status = await getJobStatus(job.name, id!);
      expect(status, job.name).toMatchObject({ name: job.name, state: "created", retryLimit: job.options.retryLimit ?? 3 });
    }
  });

  it("is the only place a job is registered: every module that defines a job is imported by it", () => {
    const registry = fs.readFileSync(REGISTRY, "utf8");
    const imported = new Set([...registry.matchAll(/from "(~\/[^"]+)"/g)].map((match) => match[1]));
    const registering: string[] = [];
    const unlisted: string[] = [];
    let definitions = 0;
    for (const file of sourceFiles()) {
      if (file === QUEUE || file === REGISTRY) continue;
      const text = fs.readFileSync(file, "utf8");
      if (/\bregisterJobHandler\s*[<(]/.test(text)) registering.push(specifierOf(file));
      const defined = text.match(/\bdefineJob\s*[<(]/g)?.length ?? 0;
      definitions += defined;
      if (defined && !imported.has(specifierOf(file))) unlisted.push(specifierOf(file));
    }
    expect(registering, "modules registering a job handler of their own").toEqual([]);
    expect(unlisted, "modules defining a job the registry does not import").toEqual([]);
    expect(definitions, "jobs defined in the product (each must be in JOBS)").toBe(JOBS.length);
  });
});
