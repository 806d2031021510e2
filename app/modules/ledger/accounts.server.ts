import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { ledgerAccounts, type LedgerAccountKind } from "~/db/schema";

/**
 * Ledger accounts by key (docs/money.md "Accounts"). A key names an account without its id: the importer and
 * the other posting code build keys, and `resolveAccounts` turns them into ids, creating the missing
 * accounts in one statement (the unique key makes that safe under concurrency).
 *
 * Sign convention: a posting's amount is positive when it increases what the account holds for its owner
 * (a member's earnings, a pending party's held money, suspense, commission) and negative on the other
 * side (receipts from a statement). Every entry sums to zero.
 */
export interface AccountKey {
  kind: LedgerAccountKind;
  userId?: number | null;
  splitPartyId?: string | null;
  subKind?: string;
}

export const accountKeyString = (key: AccountKey) => `${key.kind}|${key.userId ?? ""}|${key.splitPartyId ?? ""}|${key.subKind ?? ""}`;

export const Accounts = {
  earnings: (userId: number): AccountKey => ({ kind: "earnings", userId }),
  held: (splitPartyId: string): AccountKey => ({ kind: "held", splitPartyId }),
  suspense: (): AccountKey => ({ kind: "suspense" }),
  commission: (): AccountKey => ({ kind: "commission" }),
  /** Where a statement's money comes from, per statement kind. */
  receipts: (statementKind: string): AccountKey => ({ kind: "receipts", subKind: statementKind }),
  payoutsReserved: (userId: number): AccountKey => ({ kind: "payouts_reserved", userId }),
  payoutsPaid: (userId: number): AccountKey => ({ kind: "payouts_paid", userId }),
  /** A marketplace project's escrow (decision 021): the client's money held until released or refunded, one account per project. */
  escrow: (projectId: number): AccountKey => ({ kind: "escrow", subKind: `project:${projectId}` }),
  /** Where marketplace money comes from (a client's payment) and goes back to (a refund). */
  marketplaceReceipts: (): AccountKey => ({ kind: "receipts", subKind: "marketplace" }),
};

/** The ids of the accounts named, created when missing. `cache` (key string -> id) spares repeated lookups. */
export async function resolveAccounts(executor: Db, keys: readonly AccountKey[], cache: Map<string, number> = new Map()): Promise<Map<string, number>> {
  const missing = new Map<string, AccountKey>();
  for (const key of keys) {
    const name = accountKeyString(key);
    if (!cache.has(name)) missing.set(name, key);
  }
  if (missing.size === 0) return cache;
  const values = [...missing.values()].map((key) => ({
    kind: key.kind,
    userId: key.userId ?? null,
    splitPartyId: key.splitPartyId ?? null,
    subKind: key.subKind ?? "",
  }));
  await executor.insert(ledgerAccounts).values(values).onConflictDoNothing();
  const rows = await executor
    .select({
      id: ledgerAccounts.id,
      kind: ledgerAccounts.kind,
      userId: ledgerAccounts.userId,
      splitPartyId: ledgerAccounts.splitPartyId,
      subKind: ledgerAccounts.subKind,
    })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.currency, "USD"),
        inArray(ledgerAccounts.kind, [...new Set(values.map((v) => v.kind))]),
        sql`(${ledgerAccounts.kind}, coalesce(${ledgerAccounts.userId}, 0), coalesce(${ledgerAccounts.splitPartyId}::text, ''), ${ledgerAccounts.subKind}) in (${sql.join(
          values.map((v) => sql`(${v.kind}, ${v.userId ?? 0}, ${v.splitPartyId ?? ""}, ${v.subKind})`),
          sql`, `,
        )})`,
      ),
    );
  for (const row of rows) cache.set(accountKeyString(row), row.id);
  for (const name of missing.keys()) if (!cache.has(name)) throw new Error(`The ledger account ${name} could not be created.`);
  return cache;
}

/** One account's id when it exists (no creation), for reads. */
export async function findAccountId(executor: Db, key: AccountKey): Promise<number | null> {
  const [row] = await executor
    .select({ id: ledgerAccounts.id })
    .from(ledgerAccounts)
    .where(
      and(
        eq(ledgerAccounts.kind, key.kind),
        key.userId ? eq(ledgerAccounts.userId, key.userId) : isNull(ledgerAccounts.userId),
        key.splitPartyId ? eq(ledgerAccounts.splitPartyId, key.splitPartyId) : isNull(ledgerAccounts.splitPartyId),
        eq(ledgerAccounts.subKind, key.subKind ?? ""),
        eq(ledgerAccounts.currency, "USD"),
      ),
    )
    .limit(1);
  return row?.id ?? null;
}
