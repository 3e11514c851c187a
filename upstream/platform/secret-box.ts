/**
 * Secrets the upstream must read back (operators' TOTP secrets) are stored sealed with AES-256-GCM,
 * so a copy of the database alone does not give them away. The key is OPERATOR_SECRET_KEY (32 bytes
 * as 64 hex digits or base64) when set, else a random key made once and kept beside the database
 * (`operator-secret.key`, mode 600). Operators who keep backups of the database should set the
 * variable and keep the key elsewhere.
 *
 * Sealed text: "v1." + base64url(12-byte nonce | 16-byte tag | ciphertext). Text without the
 * prefix is a value stored before sealing existed and is read as it is.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const VERSION = "v1.";
const KEY_BYTES = 32;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_KEY_FILE = "operator-secret.key";

/** Reads a 32-byte key from 64 hex digits or base64; null when it is neither. */
export function parseSecretKey(text: string): Buffer | null {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, "hex") : Buffer.from(t, "base64");
  return key.length === KEY_BYTES ? key : null;
}

/** The key: the configured one, else the one kept in `dir` (made on first use). */
export function loadSecretKey(configured: string | null, dir: string): Buffer {
  if (configured) {
    const key = parseSecretKey(configured);
    if (!key) throw new Error("OPERATOR_SECRET_KEY must be 32 bytes: 64 hex digits or base64");
    return key;
  }
  const file = path.join(dir, SECRET_KEY_FILE);
  try {
    const key = parseSecretKey(fs.readFileSync(file, "utf8"));
    if (!key) throw new Error(`${file} does not hold a 32-byte key`);
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  fs.mkdirSync(dir, { recursive: true });
  const key = crypto.randomBytes(KEY_BYTES);
  try {
    // "wx": two processes starting together never overwrite each other's key.
    fs.writeFileSync(file, key.toString("hex") + "\n", { mode: 0o600, flag: "wx" });
    return key;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    return loadSecretKey(null, dir);
  }
}

export function seal(key: Buffer, plain: string): string {
  const nonce = crypto.randomBytes(NONCE_BYTES);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, nonce);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return VERSION + Buffer.concat([nonce, cipher.getAuthTag(), body]).toString("base64url");
}

/** The plain text of a sealed value; throws when the key is not the one that sealed it. */
export function unseal(key: Buffer, stored: string): string {
  if (!stored.startsWith(VERSION)) return stored;
  const raw = Buffer.from(stored.slice(VERSION.length), "base64url");
  const decipher = crypto.createDecipheriv("aes-256-gcm", key, raw.subarray(0, NONCE_BYTES));
  decipher.setAuthTag(raw.subarray(NONCE_BYTES, NONCE_BYTES + TAG_BYTES));
  return Buffer.concat([
    decipher.update(raw.subarray(NONCE_BYTES + TAG_BYTES)),
    decipher.final(),
  ]).toString("utf8");
}

/** Whether a stored value is sealed (else it predates sealing). */
export const isSealed = (stored: string) => stored.startsWith(VERSION);
