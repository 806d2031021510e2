import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { env } from "~/env.server";

/**
 * Secrets at rest (bank details, decision 018; TOTP secrets, decision 019): AES-256-GCM with a 32-byte key
 * from PAYOUT_ENCRYPTION_KEY (64 hex characters, or base64). Outside production a key is generated once and
 * kept in DATA_DIR/payout-encryption-key (as the session secret is); in production the key must be set, and
 * sealing without it fails with a message naming the setting.
 *
 * Stored as "v1:" + base64(iv 12 bytes | tag 16 bytes | ciphertext). The caller's additional authenticated
 * data names the row (table and owner), so a ciphertext copied onto another row does not open.
 */

export class EncryptionKeyMissingError extends Error {
  constructor(what: string) {
    super(`${what} cannot be stored: PAYOUT_ENCRYPTION_KEY is not set (64 hex characters; see .env.example).`);
    this.name = "EncryptionKeyMissingError";
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

function encryptionKey(what: string): Buffer {
  const settings = env();
  if (settings.PAYOUT_ENCRYPTION_KEY) {
    const key = parseEncryptionKey(settings.PAYOUT_ENCRYPTION_KEY);
    if (key) return key;
  }
  if (settings.isProduction) throw new EncryptionKeyMissingError(what);
  return localKey(settings.DATA_DIR);
}

/** Seals `text`; `what` names the secret in the missing-key message ("Bank details"). */
export function seal(text: string, aad: string, what: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", encryptionKey(what), iv);
  cipher.setAAD(Buffer.from(aad));
  const ciphertext = Buffer.concat([cipher.update(text, "utf8"), cipher.final()]);
  return VERSION + Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString("base64");
}

/** The text, or an error when it was altered, belongs to another row or was sealed with another key. */
export function unseal(stored: string, aad: string, what: string): string {
  if (!stored.startsWith(VERSION)) throw new Error(`Unknown ${what.toLowerCase()} format.`);
  const raw = Buffer.from(stored.slice(VERSION.length), "base64");
  const decipher = crypto.createDecipheriv("aes-256-gcm", encryptionKey(what), raw.subarray(0, 12));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(raw.subarray(12, 28));
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
}
