import type { ReleaseStatus } from "~/db/schema";

/** Statuses whose release page every signed-in member may see (otherwise: its editors and admins only). */
export const PUBLIC_RELEASE_STATUSES = ["approved", "in_distribution", "takedown_requested"] as const satisfies readonly ReleaseStatus[];
