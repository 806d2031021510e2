import { sql } from "drizzle-orm";
import { db } from "~/db/client.server";
import { profiles, releases, users } from "~/db/schema";
import { formatMicros, microsToCentsFloor } from "~/modules/ledger/money";

/** GET /api/admin/dashboard/system-profiles-summary: who is on the platform. One query. */
export interface SystemProfilesSummary {
  members: number;
  admins: number;
  verified: number;
  unverified: number;
  pending_activation: number;
  suspended: number;
  by_role: Array<{ role_id: number; count: number }>;
  signups_by_month: Array<{ month: string; count: number }>;
  artists: number;
  provider_profiles: number;
  /** Profiles of any type waiting for an administrator's decision. */
  profiles_pending_approval: number;
  /** Releases submitted for distribution and waiting for an administrator's review (status pending_approval). */
  releases_pending_review: number;
}

export async function systemProfilesSummary(now = new Date()): Promise<SystemProfilesSummary> {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 11, 1));
  const [row] = await db()
    .select({
      members: sql<number>`count(*) filter (where ${users.acctType} = 1)::int`,
      admins: sql<number>`count(*) filter (where ${users.acctType} = 2)::int`,
      verified: sql<number>`count(*) filter (where ${users.emailVerifiedAt} is not null)::int`,
      unverified: sql<number>`count(*) filter (where ${users.emailVerifiedAt} is null and ${users.activatedAt} is not null)::int`,
      pendingActivation: sql<number>`count(*) filter (where ${users.activatedAt} is null)::int`,
      suspended: sql<number>`count(*) filter (where ${users.suspendedAt} is not null)::int`,
      byRole: sql<Record<string, number> | null>`(select json_object_agg(r.role_id, r.n) from
        (select ${users.roleId} as role_id, count(*)::int as n from ${users} group by ${users.roleId}) r)`,
      byMonth: sql<Record<string, number> | null>`(select json_object_agg(m.month, m.n) from
        (select to_char(date_trunc('month', ${users.createdAt} at time zone 'UTC'), 'YYYY-MM') as month, count(*)::int as n
         from ${users} where ${users.createdAt} >= ${start.toISOString()}::timestamptz group by 1) m)`,
      profileCounts: sql<{ artists: number; providers: number; pending: number } | null>`(select json_build_object(
          'artists', count(*) filter (where ${profiles.type} = 'artist'),
          'providers', count(*) filter (where ${profiles.type} <> 'artist'),
          'pending', count(*) filter (where ${profiles.status} = 'pending_approval')) from ${profiles})`,
      releasesPendingReview: sql<number>`(select count(*)::int from ${releases} where ${releases.status} = 'pending_approval')`,
    })
    .from(users);
  const byRole = row?.byRole ?? {};
  const byMonth = row?.byMonth ?? {};
  const months = Array.from({ length: 12 }, (_, i) => {
    const d = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + i, 1));
    return d.toISOString().slice(0, 7);
  });
  return {
    members: row?.members ?? 0,
    admins: row?.admins ?? 0,
    verified: row?.verified ?? 0,
    unverified: row?.unverified ?? 0,
    pending_activation: row?.pendingActivation ?? 0,
    suspended: row?.suspended ?? 0,
    by_role: [1, 2, 3, 4, 5].map((role_id) => ({ role_id, count: byRole[String(role_id)] ?? 0 })),
    signups_by_month: months.map((month) => ({ month, count: byMonth[month] ?? 0 })),
    artists: row?.profileCounts?.artists ?? 0,
    provider_profiles: row?.profileCounts?.providers ?? 0,
    profiles_pending_approval: row?.profileCounts?.pending ?? 0,
    releases_pending_review: row?.releasesPendingReview ?? 0,
  };
}

/**
 * GET /api/admin/dashboard/system-financial-summary: the platform's money, derived from the ledger's postings
 * (one statement). Amounts are six-decimal strings (docs/money.md) with their whole cents (rounded down) beside
 * them for the page:
 * - imported: every statement's money (the statement receipts accounts' balance, negated: the sum of the lines
 *   posted); clients' marketplace payments come in through their own receipts account and are not counted here;
 * - marketplace_received: what clients paid for marketplace projects, less refunds; escrow: the part of it still
 *   held for projects not yet released or refunded (decision 021);
 * - commission: the platform commission earned; suspense: unmatched money waiting for a match;
 * - held: split shares waiting for pending parties; owed_to_members: the members' earnings balances;
 * - pending_payouts: reserved for payout requests; paid_out: paid to members.
 * `income_cents` is the imported total's cents (the dashboard's first card, as before).
 */
export interface SystemFinancialSummary {
  currency: "USD";
  imported: string;
  commission: string;
  suspense: string;
  held: string;
  owed_to_members: string;
  pending_payouts: string;
  paid_out: string;
  marketplace_received: string;
  escrow: string;
  income_cents: number;
  commission_cents: number;
  suspense_cents: number;
  held_cents: number;
  owed_to_members_cents: number;
  paid_out_cents: number;
  pending_payouts_cents: number;
  marketplace_received_cents: number;
  escrow_cents: number;
  /** Payout requests waiting for an administrator (pending), for the queue's link. */
  pending_payout_requests: number;
  /** Members whose available balance (the earnings balance: payout requests move out of it, decision 018) is at least one cent. */
  members_with_balance: number;
}

export async function systemFinancialSummary(): Promise<SystemFinancialSummary> {
  const result = await db().execute(sql`
    with bal as (
      -- posting_rollups: the postings' totals, written with them (app/db/schema/core.ts, app/modules/ledger/summaries.server.ts).
      select a.kind, a.sub_kind, a.user_id, sum(ps.amount_micros) as amount
      from posting_rollups ps join ledger_accounts a on a.id = ps.account_id
      where a.currency = 'USD' and ps.dim = ''
      group by a.id, a.kind, a.sub_kind, a.user_id
    )
    select
      coalesce(-sum(amount) filter (where kind = 'receipts' and sub_kind <> 'marketplace'), 0)::text as imported,
      coalesce(-sum(amount) filter (where kind = 'receipts' and sub_kind = 'marketplace'), 0)::text as marketplace,
      coalesce(sum(amount) filter (where kind = 'escrow'), 0)::text as escrow,
      coalesce(sum(amount) filter (where kind = 'commission'), 0)::text as commission,
      coalesce(sum(amount) filter (where kind = 'suspense'), 0)::text as suspense,
      coalesce(sum(amount) filter (where kind = 'held'), 0)::text as held,
      coalesce(sum(amount) filter (where kind = 'earnings'), 0)::text as owed,
      coalesce(sum(amount) filter (where kind = 'payouts_reserved'), 0)::text as reserved,
      coalesce(sum(amount) filter (where kind = 'payouts_paid'), 0)::text as paid,
      (select count(*)::int from (
        select user_id from bal where kind = 'earnings' and user_id is not null
        group by user_id having sum(amount) >= 10000) m) as members_with_balance,
      (select count(*)::int from payout_requests where status = 'pending') as pending_payout_requests
    from bal
  `);
  const row = (result as unknown as { rows: Array<Record<string, string> & { members_with_balance: number; pending_payout_requests: number }> }).rows[0]!;
  const micros = (key: string) => BigInt(row[key] ?? "0");
  const cents = (key: string) => Number(microsToCentsFloor(micros(key)));
  return {
    currency: "USD",
    imported: formatMicros(micros("imported")),
    commission: formatMicros(micros("commission")),
    suspense: formatMicros(micros("suspense")),
    held: formatMicros(micros("held")),
    owed_to_members: formatMicros(micros("owed")),
    pending_payouts: formatMicros(micros("reserved")),
    paid_out: formatMicros(micros("paid")),
    marketplace_received: formatMicros(micros("marketplace")),
    escrow: formatMicros(micros("escrow")),
    income_cents: cents("imported"),
    commission_cents: cents("commission"),
    suspense_cents: cents("suspense"),
    held_cents: cents("held"),
    owed_to_members_cents: cents("owed"),
    paid_out_cents: cents("paid"),
    pending_payouts_cents: cents("reserved"),
    marketplace_received_cents: cents("marketplace"),
    escrow_cents: cents("escrow"),
    pending_payout_requests: Number(row.pending_payout_requests ?? 0),
    members_with_balance: row.members_with_balance ?? 0,
  };
}
