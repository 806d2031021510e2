import { eq, sql } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db/client.server";
import { journalEntries, payoutAccounts, payoutRequests, taxDeclarations, type User } from "~/db/schema";
import { setConfigValue } from "~/modules/config/config.server";
import { Accounts } from "~/modules/ledger/accounts.server";
import { postEntry } from "~/modules/ledger/journal.server";
import { createUser } from "../../../tests/helpers/factories";
import { useTestDatabase } from "../../../tests/helpers/database";
import { decryptBankDetails, encryptBankDetails } from "./bank-details.server";
import { declareTaxStatus, findPayoutAccount, saveManualPayoutAccount, taxStatusOf } from "./payout-accounts.server";
import {
  approvePayoutRequest,
  availableCents,
  cancelPayoutRequest,
  listMemberPayoutRequests,
  payManualPayoutRequest,
  PayoutError,
  previewPayout,
  rejectPayoutRequest,
  requestPayout,
} from "./payouts.server";

useTestDatabase();

let admin: User;

beforeAll(async () => {
  admin = await createUser({ acctType: 2, roleId: 2 });
});

/** Income for a member, as a statement would post it (receipts -> earnings), in micro-units. */
async function credit(userId: number, micros: bigint) {
  await db().transaction(async (tx) => {
    await postEntry(tx, {
      kind: "test_income",
      memo: "test income",
      postings: [
        { account: Accounts.receipts("digital"), amountMicros: -micros, source: "digital" },
        { account: Accounts.earnings(userId), amountMicros: micros, source: "digital" },
      ],
    });
  });
}

const bank = { accountHolder: "Mia Tester", bankName: "First Bank", accountNumber: "000123456789", routingCode: "021000021" };

/** A member with income and a manual payout account in `country`, optionally with a declaration. */
async function payee(micros: bigint, country = "US", form: "w9" | "w8" | null = "w9") {
  const member = await createUser();
  if (micros) await credit(member.id, micros);
  await saveManualPayoutAccount(member, member.id, { country, ...bank });
  if (form) await declareTaxStatus(member, member.id, { form, legalName: "Mia Tester", country, tin: "123-45-6789" });
  return member;
}

function rows<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Balances by account kind for one member (straight from the postings), in micro-units. */
async function balances(userId: number) {
  const result = await db().execute(sql`
    select a.kind, sum(p.amount_micros)::text as amount from postings p join ledger_accounts a on a.id = p.account_id
    where a.user_id = ${userId} group by a.kind`);
  const out: Record<string, bigint> = { earnings: 0n, payouts_reserved: 0n, payouts_paid: 0n, withholding: 0n };
  for (const r of rows<{ kind: string; amount: string }>(result)) out[r.kind] = BigInt(r.amount);
  return out;
}

/** Every entry sums to zero, and posting_summaries equal the postings per account. */
async function expectLedgerBalanced() {
  const unbalanced = rows<{ n: number }>(
    await db().execute(sql`select count(*)::int as n from (select entry_id from postings group by entry_id having sum(amount_micros) <> 0) x`),
  );
  expect(unbalanced[0]!.n).toBe(0);
  const total = rows<{ s: string }>(await db().execute(sql`select coalesce(sum(amount_micros), 0)::text as s from postings`));
  expect(total[0]!.s).toBe("0");
  const drift = rows<{ n: number }>(
    await db().execute(sql`
      select count(*)::int as n from (
        select a.id, coalesce((select sum(p.amount_micros) from postings p where p.account_id = a.id), 0) as p,
          coalesce((select sum(s.amount_micros) from posting_summaries s where s.account_id = a.id), 0) as s
        from ledger_accounts a) x where p <> s`),
  );
  expect(drift[0]!.n).toBe(0);
}

async function refused(promise: Promise<unknown>): Promise<PayoutError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PayoutError);
  return error as PayoutError;
}

async function snapshot() {
  const [r] = rows<{ requests: number; entries: number }>(
    await db().execute(sql`select (select count(*) from payout_requests)::int as requests, (select count(*) from journal_entries)::int as entries`),
  );
  return r!;
}

describe("bank details", () => {
  it("are stored encrypted with only the last 4 in clear, and do not decrypt for another member", async () => {
    const member = await payee(0n);
    const [row] = await db().select().from(payoutAccounts).where(eq(payoutAccounts.userId, member.id));
    expect(row!.bankLast4).toBe("6789");
    expect(row!.bankDetailsEncrypted).toMatch(/^v1:/);
    expect(row!.bankDetailsEncrypted).not.toContain("123456789");
    expect(decryptBankDetails(member.id, row!.bankDetailsEncrypted!)).toEqual(bank);
    expect(() => decryptBankDetails(member.id + 1, row!.bankDetailsEncrypted!)).toThrow();
    const sealed = encryptBankDetails(member.id, bank);
    const tampered = sealed.slice(0, -4) + (sealed.endsWith("AAAA") ? "BBBB" : "AAAA");
    expect(() => decryptBankDetails(member.id, tampered)).toThrow();
    const account = await findPayoutAccount(member.id);
    expect(account).toEqual({
      id: row!.id,
      userId: member.id,
      method: "manual",
      country: "US",
      bankLast4: "6789",
      stripeAccountId: null,
      stripeOnboardingStatus: "none",
    });
    expect(JSON.stringify(account)).not.toContain("12345");
  });

  it("refuses someone else's account, bad numbers and a form that does not fit the country", async () => {
    const member = await createUser();
    const other = await createUser();
    expect((await refused(saveManualPayoutAccount(other, member.id, { country: "US", ...bank }))).status).toBe(404);
    expect((await refused(saveManualPayoutAccount(member, member.id, { country: "USA", ...bank }))).field).toBe("country");
    expect((await refused(saveManualPayoutAccount(member, member.id, { country: "US", ...bank, accountNumber: "12" }))).field).toBe("accountNumber");
    expect((await refused(declareTaxStatus(member, member.id, { form: "w9", legalName: "Mia", country: "DE", tin: "123456789" }))).field).toBe("form");
    expect((await refused(declareTaxStatus(member, member.id, { form: "w8", legalName: "Mia", country: "US", tin: "123456789" }))).field).toBe("form");
    expect((await refused(declareTaxStatus(member, member.id, { form: "w9", legalName: "Mia", country: "US", tin: "12" }))).field).toBe("tin");
    expect((await refused(declareTaxStatus(other, member.id, { form: "w9", legalName: "Mia", country: "US", tin: "123456789" }))).status).toBe(404);
    expect(await findPayoutAccount(member.id)).toBeNull();
    expect(await db().select().from(taxDeclarations).where(eq(taxDeclarations.userId, member.id))).toEqual([]);
  });

  it("a new declaration supersedes the old one, keeping it, and decides the withholding", async () => {
    const member = await payee(0n, "US", null);
    expect(await taxStatusOf(member.id)).toEqual({ method: "manual", country: "US", declaration: null, stripeReady: false });
    await declareTaxStatus(member, member.id, { form: "w9", legalName: "Mia Tester", country: "US", tin: "987654321" });
    await declareTaxStatus(member, member.id, { form: "w9", legalName: "Mia Tester", country: "US", tin: "111224444" });
    const all = await db().select().from(taxDeclarations).where(eq(taxDeclarations.userId, member.id));
    expect(all.map((d) => [d.tinLast4, d.supersededAt === null])).toEqual([
      ["4321", false],
      ["4444", true],
    ]);
    expect((await taxStatusOf(member.id)).declaration).toEqual({ form: "w9", country: "US" });
  });
});

describe("a payout request", () => {
  it("reserves the amount (earnings -> reserved) and the available balance drops by it", async () => {
    const mia = await payee(50_123_456n); // $50.123456 -> $50.12 available
    expect(await availableCents(mia.id)).toBe(5_012n);
    const request = await requestPayout(mia, mia.id, "20.10");
    expect(request).toMatchObject({
      status: "pending",
      method: "manual",
      amountMicros: 20_100_000n,
      feeMicros: 0n,
      withholdingBps: 0,
      withholdingMicros: 0n,
      netMicros: 20_100_000n,
    });
    expect(await balances(mia.id)).toMatchObject({ earnings: 30_023_456n, payouts_reserved: 20_100_000n, payouts_paid: 0n });
    expect(await availableCents(mia.id)).toBe(3_002n);
    const [entry] = await db().select().from(journalEntries).where(eq(journalEntries.id, request.reserveEntryId!));
    expect(entry).toMatchObject({ kind: "payout_reserve", createdBy: mia.id });
    // All of what is left, to the cent.
    await requestPayout(mia, mia.id, "30.02");
    expect(await availableCents(mia.id)).toBe(0n);
    expect(await balances(mia.id)).toMatchObject({ earnings: 3_456n, payouts_reserved: 50_120_000n });
    await expectLedgerBalanced();
  });

  it("bad input changes nothing: over the balance, below the minimum, malformed, someone else's member id", async () => {
    const mia = await payee(25_000_000n);
    const other = await createUser();
    const before = await snapshot();
    const cases: Array<[unknown, RegExp]> = [
      ["25.01", /at most \$25\.00/],
      ["9.99", /minimum payout is \$10\.00/],
      ["12.345", /such as 12\.34/],
      ["-12", /such as 12\.34/],
      ["1e3", /such as 12\.34/],
      ["12,00", /Use a point for cents, such as 10\.00/],
      ["", /such as 12\.34/],
      [undefined, /such as 12\.34/],
      ["0", /above zero/],
    ];
    for (const [amount, message] of cases) {
      const error = await refused(requestPayout(mia, mia.id, amount));
      expect([error.status, error.field, error.message], String(amount)).toEqual([400, "amount", expect.stringMatching(message)]);
    }
    expect((await refused(requestPayout(other, mia.id, "12.00"))).status).toBe(404);
    expect((await refused(requestPayout(admin, mia.id, "12.00"))).status).toBe(404);
    expect(await snapshot()).toEqual(before);
    expect(await availableCents(mia.id)).toBe(2_500n);
  });

  it("follows the config's minimum, and needs a payout method", async () => {
    const mia = await payee(100_000_000n);
    await setConfigValue("min_payout_cents", 5_000);
    try {
      expect((await refused(requestPayout(mia, mia.id, "49.99"))).message).toBe("The minimum payout is $50.00.");
      expect((await requestPayout(mia, mia.id, "50.00")).status).toBe("pending");
    } finally {
      await setConfigValue("min_payout_cents", 1_000);
    }
    const noMethod = await createUser();
    await credit(noMethod.id, 20_000_000n);
    expect((await refused(requestPayout(noMethod, noMethod.id, "15.00"))).message).toMatch(/Choose how you are paid/);
  });

  it("previews without reserving: fee, withholding, net and pay date, and the reason it would be refused", async () => {
    const member = await payee(40_000_000n, "US", null);
    const before = await snapshot();
    const wednesday = new Date("2026-07-08T12:00:00Z");
    const preview = await previewPayout(member, member.id, "30.00", wednesday);
    expect(preview.simulation).toMatchObject({
      amountCents: 3_000n,
      feeCents: 0n,
      withholdingBps: 2400,
      withholdingCents: 720n,
      netCents: 2_280n,
      nextPayDate: "2026-07-10",
    });
    expect(preview.problem).toBeNull();
    expect((await previewPayout(member, member.id, "45.00", wednesday)).problem?.message).toMatch(/at most \$40\.00/);
    expect(await snapshot()).toEqual(before);
  });
});

describe("cancel, reject, approve and pay", () => {
  it("the member cancels a pending request: the reservation is released by a reversing entry", async () => {
    const mia = await payee(30_000_000n);
    const request = await requestPayout(mia, mia.id, "25.00");
    const other = await createUser();
    expect((await refused(cancelPayoutRequest(other, request.id))).status).toBe(404);
    expect((await refused(cancelPayoutRequest(admin, request.id))).status).toBe(404);
    const canceled = await cancelPayoutRequest(mia, request.id);
    expect(canceled.status).toBe("canceled");
    expect(canceled.canceledAt).toBeInstanceOf(Date);
    const [entry] = await db().select().from(journalEntries).where(eq(journalEntries.id, canceled.releaseEntryId!));
    expect(entry).toMatchObject({ kind: "payout_release", reversesEntryId: request.reserveEntryId });
    expect(await balances(mia.id)).toMatchObject({ earnings: 30_000_000n, payouts_reserved: 0n });
    expect(await availableCents(mia.id)).toBe(3_000n);
    // Only once.
    expect((await refused(cancelPayoutRequest(mia, request.id))).status).toBe(409);
    expect(await balances(mia.id)).toMatchObject({ earnings: 30_000_000n, payouts_reserved: 0n });
    await expectLedgerBalanced();
  });

  it("an administrator rejects with a reason: released; a member cannot reject", async () => {
    const mia = await payee(30_000_000n);
    const request = await requestPayout(mia, mia.id, "12.00");
    expect((await refused(rejectPayoutRequest(mia, request.id, "nope nope"))).status).toBe(404);
    expect((await refused(rejectPayoutRequest(admin, request.id, ""))).field).toBe("reason");
    expect((await balances(mia.id)).payouts_reserved).toBe(12_000_000n);
    const rejected = await rejectPayoutRequest(admin, request.id, "The bank details do not match your name.");
    expect(rejected).toMatchObject({ status: "rejected", rejectionReason: "The bank details do not match your name." });
    expect(await balances(mia.id)).toMatchObject({ earnings: 30_000_000n, payouts_reserved: 0n });
    expect((await refused(rejectPayoutRequest(admin, request.id, "again"))).status).toBe(409);
    expect((await refused(cancelPayoutRequest(mia, request.id))).status).toBe(409);
    expect((await refused(rejectPayoutRequest(admin, 2_000_000_000, "missing"))).status).toBe(404);
    await expectLedgerBalanced();
  });

  it("an administrator pays a manual request: reserved -> paid, with withholding and the fee as their own postings", async () => {
    await setConfigValue("payout_fees", { manual: { fixed_cents: 100, bps: 0 } });
    try {
      const noW9 = await payee(100_000_000n, "US", null);
      const request = await requestPayout(noW9, noW9.id, "50.00");
      expect(request).toMatchObject({ feeMicros: 1_000_000n, withholdingBps: 2400, withholdingMicros: 12_000_000n, netMicros: 37_000_000n });
      expect((await refused(payManualPayoutRequest(noW9, request.id, "TRX-1"))).status).toBe(404);
      expect((await refused(payManualPayoutRequest(admin, request.id, ""))).field).toBe("reference");
      const paid = await payManualPayoutRequest(admin, request.id, "TRX-2026-0001");
      expect(paid).toMatchObject({ status: "paid", reference: "TRX-2026-0001", netMicros: 37_000_000n });
      expect(paid.paidAt).toBeInstanceOf(Date);
      expect(await balances(noW9.id)).toEqual({ earnings: 50_000_000n, payouts_reserved: 0n, payouts_paid: 37_000_000n, withholding: 12_000_000n });
      const parts = rows<{ kind: string; amount: string }>(
        await db().execute(
          sql`select a.kind, p.amount_micros::text as amount from postings p join ledger_accounts a on a.id = p.account_id where p.entry_id = ${paid.paymentEntryId} order by p.id`,
        ),
      );
      expect(parts).toEqual([
        { kind: "payouts_reserved", amount: "-50000000" },
        { kind: "payouts_paid", amount: "37000000" },
        { kind: "withholding", amount: "12000000" },
        { kind: "payout_fees", amount: "1000000" },
      ]);
      // Paid once: a second payment, a cancellation or a rejection is refused and moves nothing.
      expect((await refused(payManualPayoutRequest(admin, request.id, "TRX-again"))).status).toBe(409);
      expect((await refused(cancelPayoutRequest(noW9, request.id))).status).toBe(409);
      expect((await refused(rejectPayoutRequest(admin, request.id, "too late"))).status).toBe(409);
      expect((await balances(noW9.id)).payouts_paid).toBe(37_000_000n);
    } finally {
      await setConfigValue("payout_fees", {});
    }
    await expectLedgerBalanced();
  });

  it("withholding is worked out again at payment: a W-9 sent after the request counts; non-US without a W-8 pays 30%", async () => {
    const late = await payee(20_000_000n, "US", null);
    const request = await requestPayout(late, late.id, "20.00");
    expect(request.withholdingMicros).toBe(4_800_000n);
    await declareTaxStatus(late, late.id, { form: "w9", legalName: "Late Filer", country: "US", tin: "123456789" });
    const paid = await payManualPayoutRequest(admin, request.id, "TRX-W9");
    expect(paid).toMatchObject({ withholdingBps: 0, withholdingMicros: 0n, netMicros: 20_000_000n });

    const foreign = await payee(20_000_000n, "FR", null);
    const approved = await approvePayoutRequest(admin, (await requestPayout(foreign, foreign.id, "10.00")).id);
    expect(approved.status).toBe("approved");
    expect((await refused(cancelPayoutRequest(foreign, approved.id))).status).toBe(409);
    const paidForeign = await payManualPayoutRequest(admin, approved.id, "TRX-FR");
    expect(paidForeign).toMatchObject({ withholdingBps: 3000, withholdingMicros: 3_000_000n, netMicros: 7_000_000n });
    expect(await balances(foreign.id)).toEqual({ earnings: 10_000_000n, payouts_reserved: 0n, payouts_paid: 7_000_000n, withholding: 3_000_000n });
    await expectLedgerBalanced();
  });

  it("lists a member's requests to the member and administrators only", async () => {
    const mia = await payee(50_000_000n);
    const first = await requestPayout(mia, mia.id, "10.00");
    const second = await requestPayout(mia, mia.id, "11.00");
    await cancelPayoutRequest(mia, first.id);
    expect((await listMemberPayoutRequests(mia, mia.id)).map((r) => [r.id, r.status])).toEqual([
      [second.id, "pending"],
      [first.id, "canceled"],
    ]);
    expect(await listMemberPayoutRequests(admin, mia.id)).toHaveLength(2);
    expect((await refused(listMemberPayoutRequests(await createUser(), mia.id))).status).toBe(404);
  });
});

describe("concurrency", () => {
  it("100 simultaneous requests against one balance never overdraw it", async () => {
    const mia = await payee(100_005_000n); // $100.005 -> $100.00 available
    const attempts = await Promise.allSettled(Array.from({ length: 100 }, () => requestPayout(mia, mia.id, "15.00")));
    const made = attempts.filter((a) => a.status === "fulfilled");
    const refusedOnes = attempts.filter((a): a is PromiseRejectedResult => a.status === "rejected");
    expect(made).toHaveLength(6); // 6 x $15 = $90; a 7th would be $105
    for (const r of refusedOnes)
      expect(r.reason).toMatchObject({ status: 400, field: "amount", message: "You can request at most $10.00, your available balance." });
    expect(await balances(mia.id)).toMatchObject({ earnings: 10_005_000n, payouts_reserved: 90_000_000n });
    expect(await availableCents(mia.id)).toBe(1_000n);
    const [count] = await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(payoutRequests)
      .where(eq(payoutRequests.userId, mia.id));
    expect(count!.n).toBe(6);

    // Requests racing cancellations: whatever the order, the balance ends at zero or above and adds up.
    const more = await Promise.allSettled([
      ...Array.from({ length: 50 }, () => requestPayout(mia, mia.id, "10.00")),
      ...made.map((m) => cancelPayoutRequest(mia, (m as PromiseFulfilledResult<{ id: number }>).value.id)),
    ]);
    expect(more.filter((a) => a.status === "rejected" && !(a.reason instanceof PayoutError))).toEqual([]);
    const after = await balances(mia.id);
    expect(after.earnings).toBeGreaterThanOrEqual(0n);
    expect(after.earnings + after.payouts_reserved).toBe(100_005_000n);
    const [reserved] = rows<{ s: string }>(
      await db().execute(sql`select coalesce(sum(amount_micros), 0)::text as s from payout_requests where user_id = ${mia.id} and status = 'pending'`),
    );
    expect(BigInt(reserved!.s)).toBe(after.payouts_reserved);
    await expectLedgerBalanced();
  });
});
