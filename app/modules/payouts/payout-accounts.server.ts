import { and, eq, isNull, sql } from "drizzle-orm";
import { db, type Db } from "~/db/client.server";
import { payoutAccounts, taxDeclarations, type PayoutAccount, type PayoutMethod, type TaxForm, type User } from "~/db/schema";
import { encryptBankDetails, lastFour, type BankDetails } from "./bank-details.server";
import type { TaxStatus } from "./payout-math";
import { PayoutError } from "./payout-errors";

/**
 * How a member is paid and their tax status. Only the member changes their own; everyone else is
 * refused as if the member did not exist (404). The pages (payouts-provider) and the step-up confirmation come
 * later; these services are what they call.
 */

const COUNTRY = /^[A-Z]{2}$/;
const ACCOUNT_NUMBER = /^[0-9A-Z]{4,34}$/;

function ownOnly(actor: Pick<User, "id">, memberId: number) {
  if (actor.id !== memberId) throw new PayoutError(404, "This member does not exist.");
}

export interface ManualAccountInput {
  country: string;
  accountHolder: string;
  bankName: string;
  accountNumber: string;
  routingCode: string;
}

/** Sets (or replaces) the member's manual bank-transfer details, encrypted; returns the account without them. */
export async function saveManualPayoutAccount(actor: Pick<User, "id">, memberId: number, input: ManualAccountInput): Promise<PayoutAccountView> {
  ownOnly(actor, memberId);
  const country = input.country.trim().toUpperCase();
  if (!COUNTRY.test(country)) throw new PayoutError(400, "Choose your country of tax residence.", "country");
  const accountHolder = input.accountHolder.trim();
  if (accountHolder.length < 2 || accountHolder.length > 140) throw new PayoutError(400, "Enter the account holder's name.", "accountHolder");
  const accountNumber = input.accountNumber.replace(/[\s-]/g, "").toUpperCase();
  if (!ACCOUNT_NUMBER.test(accountNumber)) throw new PayoutError(400, "Enter the account number or IBAN (letters and digits, 4 to 34).", "accountNumber");
  const routingCode = input.routingCode.replace(/\s/g, "").toUpperCase();
  if (routingCode.length > 34 || /[^0-9A-Z-]/.test(routingCode))
    throw new PayoutError(400, "Enter the routing number, sort code or BIC as the bank gives it.", "routingCode");
  const details: BankDetails = { accountHolder, bankName: input.bankName.trim().slice(0, 140), accountNumber, routingCode };
  const values = {
    method: "manual" as PayoutMethod,
    country,
    bankDetailsEncrypted: encryptBankDetails(memberId, details),
    bankLast4: lastFour(accountNumber),
    updatedAt: new Date(),
  };
  const [row] = await db()
    .insert(payoutAccounts)
    .values({ userId: memberId, ...values })
    .onConflictDoUpdate({ target: payoutAccounts.userId, set: values })
    .returning();
  return payoutAccountView(row!);
}

export interface PayoutAccountView {
  id: number;
  userId: number;
  method: PayoutMethod;
  country: string;
  /** Only these four characters of the bank account are ever shown. */
  bankLast4: string | null;
  stripeAccountId: string | null;
  stripeOnboardingStatus: PayoutAccount["stripeOnboardingStatus"];
}

export const payoutAccountView = (row: PayoutAccount): PayoutAccountView => ({
  id: row.id,
  userId: row.userId,
  method: row.method,
  country: row.country,
  bankLast4: row.bankLast4,
  stripeAccountId: row.stripeAccountId,
  stripeOnboardingStatus: row.stripeOnboardingStatus,
});

export async function findPayoutAccount(memberId: number, executor: Db = db()): Promise<PayoutAccountView | null> {
  const [row] = await executor.select().from(payoutAccounts).where(eq(payoutAccounts.userId, memberId)).limit(1);
  return row ? payoutAccountView(row) : null;
}

export interface TaxDeclarationInput {
  form: string;
  legalName: string;
  country: string;
  tin: string;
}

/**
 * Records a W-9 (US persons) or W-8 (everyone else) declaration; the previous one is superseded, kept as
 * history. Only the TIN's last 4 digits are stored. The form must fit the country it certifies.
 */
export async function declareTaxStatus(actor: Pick<User, "id">, memberId: number, input: TaxDeclarationInput, meta: { ip?: string | null } = {}) {
  ownOnly(actor, memberId);
  const form = input.form === "w9" || input.form === "w8" ? (input.form as TaxForm) : null;
  if (!form) throw new PayoutError(400, "Choose a W-9 (US persons) or a W-8 (everyone else).", "form");
  const country = input.country.trim().toUpperCase();
  if (!COUNTRY.test(country)) throw new PayoutError(400, "Choose the country the form certifies.", "country");
  if (form === "w9" && country !== "US") throw new PayoutError(400, "A W-9 is for US persons; choose a W-8 for another country.", "form");
  if (form === "w8" && country === "US") throw new PayoutError(400, "A W-8 is for non-US persons; choose a W-9 for the US.", "form");
  const legalName = input.legalName.trim();
  if (legalName.length < 2 || legalName.length > 140) throw new PayoutError(400, "Enter the name shown on your tax return.", "legalName");
  const digits = input.tin.replace(/[\s-]/g, "");
  if (!/^[0-9A-Z]{6,20}$/i.test(digits) || !/[0-9]{4}$/.test(digits))
    throw new PayoutError(400, "Enter your taxpayer identification number (it ends in 4 digits).", "tin");
  return db().transaction(async (tx) => {
    await tx
      .update(taxDeclarations)
      .set({ supersededAt: new Date() })
      .where(and(eq(taxDeclarations.userId, memberId), isNull(taxDeclarations.supersededAt)));
    const [row] = await tx
      .insert(taxDeclarations)
      .values({ userId: memberId, form, legalName, country, tinLast4: digits.slice(-4), signedIp: meta.ip ?? null })
      .returning({
        id: taxDeclarations.id,
        form: taxDeclarations.form,
        country: taxDeclarations.country,
        tinLast4: taxDeclarations.tinLast4,
        signedAt: taxDeclarations.signedAt,
      });
    return row!;
  });
}

/** The member's tax residence (payout account) and the declaration in force. One statement. */
export async function taxStatusOf(memberId: number, executor: Db = db()): Promise<TaxStatus & { method: PayoutMethod | null; stripeReady: boolean }> {
  const result = await executor.execute(sql`
    select a.method, a.country, d.form, d.country as declared, a.stripe_account_id is not null and a.stripe_onboarding_status = 'complete' as stripe_ready
    from (select ${memberId}::int as user_id) m
    left join payout_accounts a on a.user_id = m.user_id
    left join tax_declarations d on d.user_id = m.user_id and d.superseded_at is null
  `);
  const row = (
    result as unknown as {
      rows: Array<{ method: PayoutMethod | null; country: string | null; form: TaxForm | null; declared: string | null; stripe_ready: boolean | null }>;
    }
  ).rows[0];
  return {
    method: row?.method ?? null,
    stripeReady: row?.stripe_ready === true,
    country: row?.country ?? null,
    declaration: row?.form && row.declared ? { form: row.form, country: row.declared } : null,
  };
}

/** The declaration in force as the payouts page shows it (TIN: last 4 only), or null. */
export async function currentTaxDeclaration(memberId: number, executor: Db = db()) {
  const [row] = await executor
    .select({
      form: taxDeclarations.form,
      legalName: taxDeclarations.legalName,
      country: taxDeclarations.country,
      tinLast4: taxDeclarations.tinLast4,
      signedAt: taxDeclarations.signedAt,
    })
    .from(taxDeclarations)
    .where(and(eq(taxDeclarations.userId, memberId), isNull(taxDeclarations.supersededAt)))
    .limit(1);
  return row ?? null;
}
