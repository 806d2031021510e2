import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "~/env.server";

/**
 * Bank details at rest (issue 11, decision 018): AES-256-GCM with a 32-byte key from PAYOUT_ENCRYPTION_KEY
 * (64 hex characters, or base64). Outside production a key is generated once and kept in
 * DATA_DIR/payout-encryption-key (as the session secret is); in production the key must be set, and storing
 * bank details without it fails with a message naming the setting.
 *
 * Stored as "v1:" + base64(iv 12 bytes | tag 16 bytes | ciphertext). The member's id is the additional
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

export class PayoutKeyMissingError extends Error {
  constructor() {
    super("Bank details cannot be stored: PAYOUT_ENCRYPTION_KEY is not set (64 hex characters; see .env.example).");
    this.name = "PayoutKeyMissingError";
  }
}

const VERSION = "v1:";

/** Parses a key setting: 64 hex characters or base64 of 32 bytes; null when it is neither. */
export function parseEncryptionKey(value: string): Buffer | null {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, "hex");
  if (/^[A-Za-z0-9+/]{43}=?$/.test(text)) {
    const key = Buffer.from(text, "base64");
    if (key.length === 32) return key;
  }
  return null;
}

let generated: { dir: string; key: Buffer } | undefined;

function localKey(dataDir: string): Buffer {
  if (generated?.dir === dataDir) return generated.key;
  const file = path.join(dataDir, "payout-encryption-key");
  let key: Buffer | null = null;
  try {
    key = parseEncryptionKey(fs.readFileSync(file, "utf8"));
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const hex = crypto.randomBytes(32).toString("hex");
    try {
      fs.writeFileSync(file, hex, { mode: 0o600, flag: "wx" });
      key = Buffer.from(hex, "hex");
    } catch {
      key = parseEncryptionKey(fs.readFileSync(file, "utf8")); // another process wrote it first
    }
  }
  if (!key) throw new Error(`${file} does not hold a 32-byte key.`);
  generated = { dir: dataDir, key };
  return key;
}

function encryptionKey(): Buffer {
  const settings = env();
  if (settings.PAYOUT_ENCRYPTION_KEY) {
    const key = parseEncryptionKey(settings.PAYOUT_ENCRYPTION_KEY);
    if (key) return key;
  }
  if (settings.isProduction) throw new PayoutKeyMissingError();
  return localKey(settings.DATA_DIR);
}

const aad = (userId: number) => Buffer.from(`payout_accounts:${userId}`);

export function encryptBankDetails(userId: number, details: BankDetails): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", encryptionKey(), iv);
  cipher.setAAD(aad(userId));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(details), "utf8"), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64");
}

/** The details, or an error when the text was altered, belongs to another member or was sealed with another key. */
export function decryptBankDetails(userId: number, stored: string): BankDetails {
  if (!stored.startsWith(VERSION)) throw new Error("Unknown bank details format.");
  const raw = Buffer.from(stored.slice(VERSION.length), "base64");
  const decipher = crypto.createDecipheriv("aes-256-gcm", encryptionKey(), raw.subarray(0, 12));
  decipher.setAAD(aad(userId));
  decipher.setAuthTag(raw.subarray(12, 28));
  const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
  return JSON.parse(text) as BankDetails;
}

/** The only part of a bank account ever shown: its last four characters. */
export const lastFour = (accountNumber: string) => accountNumber.slice(-4);
