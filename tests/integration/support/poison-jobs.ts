import { registerJobHandler } from "../../../app/modules/jobs/queue.server";

/**
 * Jobs that throw what a real failure can throw (tests/integration/job-failures.test.ts): an error whose message
 * holds a NUL (a driver error quoting a statement cell), a lone surrogate, null, a circular object. Registered
 * with the same options by the test (which enqueues) and by the worker child (which runs them).
 */
export const POISON_JOB = "test.poison";

export interface PoisonData {
  throws: "nul" | "surrogate" | "null" | "circular";
  /** Milliseconds the first run waits before throwing (so a test can kill the process mid-run); retries throw at once. */
  afterMs?: number;
}

export function poisonValue(kind: PoisonData["throws"]): unknown {
  switch (kind) {
    case "nul":
      return new Error('insert into statement_lines failed: invalid byte in "Spot\u0000ify"');
    case "surrogate":
      return new Error("half a pair: \ud83c");
    case "null":
      return null;
    case "circular": {
      const value: Record<string, unknown> = { message: "circular" };
      value.self = value;
      return value;
    }
  }
}

export function registerPoisonJobs(onRun: (data: PoisonData) => void = () => {}) {
  registerJobHandler<PoisonData>(
    POISON_JOB,
    async (data, job) => {
      onRun(data);
      if (data.afterMs && job.retryCount === 0) await new Promise((resolve) => setTimeout(resolve, data.afterMs));
      throw poisonValue(data.throws);
    },
    { retryLimit: 1, retryDelaySeconds: 1, retryBackoff: false, expireInSeconds: 60 },
  );
}
