/**
 * Bench wrapper: the realtime server exactly as main.ts runs it, plus a SIGUSR2 hook that runs a full
 * garbage collection (needs --expose-gc) so memory readings are not GC timing noise.
 */
const runGc = (globalThis as { gc?: () => void }).gc;
process.on("SIGUSR2", () => runGc?.());
await import("../src/main");

export {};
