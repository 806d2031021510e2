import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { accountKeyString, Accounts, resolveAccounts } from "~/modules/ledger/accounts.server";
import { addEntryToSummaries } from "~/modules/ledger/summaries.server";

/**
 * Affiliate commissions (decision 025). For 12 months after a referred member signs up, each
 * platform commission posted from that member's income earns their affiliate the affiliate's rate (basis
 * points of that commission).
 *
 * A line's commission is taken before its split, so it has no member of its own: the part of it that a
 * member's income earned is the commission times that member's share of the line's net (their earnings
 * postings on the line, over every share posting on it: members and held parties). The affiliate gets
 * `commission × member's part / net × rate / 10,000`, rounded once, half to even, in micro-units.
 *
 * It is posted as its own entry (`affiliate_commission`), beside the entry it was computed from (the
 * import's, or a suspense match's), in the same transaction: for each (commission posting, referred
 * member) pair, the platform commission −amount and the affiliate owner's earnings +amount with source
 * `affiliate` (so it is their income and part of their available balance, paid by the payout flow), both
 * on the statement line; `affiliate_commissions` traces the earnings posting to the commission posting
 * and the referred member. The whole entry is written by one statement, whatever the number of lines.
 */

export const AFFILIATE_WINDOW = "12 months";

/** a / b rounded half to even, as SQL over numerics (exact integer arithmetic). */
function halfEvenDiv(a: ReturnType<typeof sql>, b: ReturnType<typeof sql>) {
  return sql`(select case
      when 2 * abs(x.r) > abs(x.d) or (2 * abs(x.r) = abs(x.d) and mod(x.q, 2) <> 0) then x.q + sign(x.n) * sign(x.d)
      else x.q end
    from (select y.n, y.d, div(y.n, y.d) as q, y.n - div(y.n, y.d) * y.d as r from (select (${a})::numeric as n, (${b})::numeric as d) y) x)`;
}

/** a / b rounded half to even, in JavaScript bigints (the same rule, for tests and previews). */
export function halfEvenDivBig(a: bigint, b: bigint): bigint {
  const q = a / b;
  const r = a - q * b;
  const abs = (v: bigint) => (v < 0n ? -v : v);
  const sign = a < 0n !== b < 0n ? -1n : 1n;
  if (2n * abs(r) > abs(b) || (2n * abs(r) === abs(b) && q % 2n !== 0n)) return q + sign;
  return q;
}

/** The affiliate's part of one commission: commission × member / net × bps / 10,000, half to even. */
export function affiliateCommissionMicros(commissionMicros: bigint, memberMicros: bigint, netMicros: bigint, bps: number): bigint {
  if (netMicros === 0n) return 0n;
  return halfEvenDivBig(commissionMicros * memberMicros * BigInt(bps), netMicros * 10_000n);
}

/**
 * Posts the affiliate commissions earned by the commission postings of entry `sourceEntryId` (inside the
 * caller's transaction, after the postings). Returns the new entry's id, or null when nothing was earned.
 * Three statements whatever the entry's size: the owners' earnings accounts, the entry with its postings and
 * traces, the summaries.
 */
export async function postAffiliateCommissions(
  tx: Db,
  input: { sourceEntryId: number; importId: number | null; createdBy: number | null; memo: string },
): Promise<number | null> {
  // Nothing to do (the usual case) without a referred member in their window: one cheap statement.
  const active = await tx.execute(sql`select exists (select 1 from affiliate_referrals r join affiliates f on f.id = r.affiliate_id and f.status = 'approved'
    where r.created_at > now() - interval '${sql.raw(AFFILIATE_WINDOW)}') as any`);
  if (!(active as unknown as { rows: Array<{ any: boolean }> }).rows[0]?.any) return null;
  const accounts = await resolveAccounts(tx, [Accounts.commission()]);
  const commissionAccount = accounts.get(accountKeyString(Accounts.commission()))!;
  const E = input.sourceEntryId;
  // Who earns on this entry: referred members within their window, of approved affiliates.
  // Driven from the few referred members (their earnings postings in this entry, by the account index), not
  // from the entry's every commission posting: an import of a million lines with three referred members reads
  // their postings and their lines' commissions only.
  const shares = sql`
    with referred as materialized (
      select a.id as account_id, a.user_id as referred_user_id, f.id as affiliate_id, f.user_id as owner_id, f.commission_bps as bps
      from affiliate_referrals r
      join affiliates f on f.id = r.affiliate_id and f.status = 'approved' and f.user_id <> r.user_id
      join ledger_accounts a on a.kind = 'earnings' and a.user_id = r.user_id and a.split_party_id is null and a.sub_kind = '' and a.currency = 'USD'
      where r.created_at > now() - interval '${sql.raw(AFFILIATE_WINDOW)}'
    ),
    mine as materialized (
      select p.statement_line_id as line_id, rf.referred_user_id, rf.affiliate_id, rf.owner_id, rf.bps, sum(p.amount_micros) as member_amount
      from referred rf
      join postings p on p.account_id = rf.account_id and p.source in ('digital', 'license') and p.entry_id + 0 = ${E} and p.statement_line_id is not null
      group by p.statement_line_id, rf.referred_user_id, rf.affiliate_id, rf.owner_id, rf.bps
    )
    select c.id as source_posting_id, m.line_id, c.amount_micros as commission, m.referred_user_id, m.affiliate_id, m.owner_id, m.bps, m.member_amount,
      (select sum(q.amount_micros) from postings q join ledger_accounts qa on qa.id = q.account_id and qa.kind in ('earnings', 'held')
        where q.statement_line_id = m.line_id and q.entry_id + 0 = ${E} and q.source in ('digital', 'license')) as net
    from mine m
    join postings c on c.statement_line_id = m.line_id and c.entry_id + 0 = ${E} and c.account_id + 0 = ${commissionAccount} and c.amount_micros <> 0`;
  await tx.execute(sql`insert into ledger_accounts (kind, user_id, split_party_id, sub_kind, currency)
    select distinct 'earnings', s.owner_id, null::uuid, '', 'USD' from (${shares}) s on conflict do nothing`);
  const result = await tx.execute(sql`
    with calc as materialized (
      select s.*, oa.id as owner_account_id,
        ${halfEvenDiv(sql`s.commission::numeric * s.member_amount * s.bps`, sql`s.net::numeric * 10000`)} as amount,
        ${halfEvenDiv(sql`s.commission::numeric * s.member_amount`, sql`s.net`)} as base,
        nextval(pg_get_serial_sequence('postings', 'id')) as posting_id,
        nextval(pg_get_serial_sequence('postings', 'id')) as platform_posting_id
      from (${shares}) s
      join ledger_accounts oa on oa.kind = 'earnings' and oa.user_id = s.owner_id and oa.split_party_id is null and oa.sub_kind = '' and oa.currency = 'USD'
      where s.net <> 0
    ),
    earned as materialized (select * from calc where amount <> 0),
    entry as (
      insert into journal_entries (kind, memo, import_id, created_by)
      select 'affiliate_commission', ${input.memo}, ${input.importId}::int, ${input.createdBy}::int where exists (select 1 from earned)
      returning id, created_at
    ),
    posted as (
      insert into postings (id, entry_id, account_id, amount_micros, currency, statement_line_id, source)
      overriding system value
      select e2.posting_id, entry.id, e2.owner_account_id, e2.amount, 'USD', e2.line_id, 'affiliate' from earned e2, entry
      union all
      select e2.platform_posting_id, entry.id, ${commissionAccount}::int, -e2.amount, 'USD', e2.line_id, null from earned e2, entry
      returning id, account_id, source, song_id, statement_line_id, amount_micros
    ),
    traced as (
      insert into affiliate_commissions (posting_id, entry_id, affiliate_id, referred_user_id, source_posting_id, statement_line_id, base_micros, amount_micros, commission_bps)
      select e2.posting_id, entry.id, e2.affiliate_id, e2.referred_user_id, e2.source_posting_id, e2.line_id, e2.base, e2.amount, e2.bps from earned e2, entry
      returning posting_id
    )
    select (select id from entry) as entry_id, to_char((select created_at from entry) at time zone 'UTC', 'YYYY-MM-01') as month, (select count(*)::int from traced) as traced,
      p.account_id, p.source, p.song_id, p.statement_line_id, p.amount_micros::text as amount
    from posted p order by p.id`);
  const rows = (
    result as unknown as {
      rows: Array<{
        entry_id: number | string;
        month: string;
        account_id: number;
        source: string | null;
        song_id: number | null;
        statement_line_id: number | string | null;
        amount: string;
      }>;
    }
  ).rows;
  if (rows.length === 0) return null;
  const entryId = Number(rows[0]!.entry_id);
  // The pages' running totals from the postings just written (summaries.server.ts), their own entry set aside.
  await addEntryToSummaries(
    tx,
    rows[0]!.month,
    rows.map((r) => ({
      accountId: r.account_id,
      source: r.source,
      songId: r.song_id,
      statementLineId: r.statement_line_id === null ? null : Number(r.statement_line_id),
      amountMicros: BigInt(r.amount),
    })),
    entryId,
  );
  return entryId;
}
