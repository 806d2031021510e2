import { seal, unseal } from "~/modules/security/sealed.server";

/**
 * Bank details at rest (decision 018): sealed with AES-256-GCM by the shared helper
 * (app/modules/security/sealed.server.ts, which also seals TOTP secrets). The member's id is the additional
 * authenticated data, so a ciphertext copied onto another member's row does not decrypt.
 */

export interface BankDetails {
  accountHolder: string;
  bankName: string;
  /** Digits and capitals only (an IBAN or a local account number), as entered without spaces. */
  accountNumber: string;
  /** Routing number, sort code, BIC/SWIFT: what the bank needs besides the number; may be empty. */
  routingCode: string;
}

const aad = (userId: number) => `payout_accounts:${userId}`;

export function encryptBankDetails(userId: number, details: BankDetails): string {
  return seal(JSON.stringify(details), aad(userId), "Bank details");
}

/** The details, or an error when the text was altered, belongs to another member or was sealed with another key. */
export function decryptBankDetails(userId: number, stored: string): BankDetails {
  return JSON.parse(unseal(stored, aad(userId), "Bank details")) as BankDetails;
}

/** The only part of a bank account ever shown: its last four characters. */
export const lastFour = (accountNumber: string) => accountNumber.slice(-4);
