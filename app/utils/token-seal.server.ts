/**
 * Upstream session tokens kept in the web's database (sign-outs waiting for the upstream,
 * web_pending_signouts) are never stored as they are: a row holds the token's SHA-256 (its key:
 * one row per token) and the token sealed with AES-256-GCM, under a key derived (HKDF-SHA256) from
 * SESSION_SECRET. Whoever reads the table or a backup of it cannot sign in as anyone; a node with the
 * secret opens the token to revoke it.
 *
 * With several secrets (rotation, newest first), a token is sealed with the first and opened with
 * whichever of them sealed it. A sealed text is "v1." followed by base64url(iv | tag | ciphertext).
 */
import crypto from "node:crypto";

const VERSION = "v1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const INFO = "tradepost web: pending sign-outs";

export interface TokenSeal {
  /** The token's key in the table: its SHA-256, hex. */
  id(token: string): string;
  seal(token: string): string;
  /** The token, or null when no secret opens it (another secret, or altered). */
  open(sealed: string): string | null;
}

const keyOf = (secret: string): Buffer =>
  Buffer.from(crypto.hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.alloc(0), INFO, 32));

export function tokenSeal(secrets: string[]): TokenSeal {
  if (secrets.length === 0) throw new Error("tokenSeal needs at least one secret");
  const keys = secrets.map(keyOf);
  return {
    id: (token) => crypto.createHash("sha256").update(token, "utf8").digest("hex"),
    seal(token) {
      const iv = crypto.randomBytes(IV_BYTES);
      const cipher = crypto.createCipheriv("aes-256-gcm", keys[0], iv);
      const body = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
      return VERSION + Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url");
    },
    open(sealed) {
      if (!sealed.startsWith(VERSION)) return null;
      const raw = Buffer.from(sealed.slice(VERSION.length), "base64url");
      if (raw.length <= IV_BYTES + TAG_BYTES) return null;
      const iv = raw.subarray(0, IV_BYTES);
      const tag = raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES);
      const body = raw.subarray(IV_BYTES + TAG_BYTES);
      for (const key of keys) {
        try {
          const decipher = crypto.createDecipheriv("aes-256-gcm", key, iv);
          decipher.setAuthTag(tag);
          return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
        } catch {
          // Not this secret's: try the next.
        }
      }
      return null;
    },
  };
}
