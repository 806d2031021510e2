// The messages the page and the service worker exchange (shared by app/sw/sw.ts and the registration component).

/** Page -> waiting worker: the user agreed to update; activate now. */
export const SKIP_WAITING = "SKIP_WAITING";
/** Page -> worker: a logout is under way; delete every runtime cache. */
export const CLEAR_CACHES = "CLEAR_CACHES";
/** Worker -> page (on the message's port, when one is given): the runtime caches are gone. */
export const CACHES_CLEARED = "CACHES_CLEARED";

export type WorkerMessage = { type: typeof SKIP_WAITING } | { type: typeof CLEAR_CACHES };

export function isWorkerMessage(data: unknown): data is WorkerMessage {
  const type = (data as { type?: unknown } | null)?.type;
  return type === SKIP_WAITING || type === CLEAR_CACHES;
}
