import type { CreditRole } from "~/db/schema";

export const CREDIT_ROLE_LABELS: Record<CreditRole, string> = { producer: "Producer", featured_artist: "Featured artist" };
