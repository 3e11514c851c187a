/**
 * SHA-256 of a text, hex: Node's one-shot digest (20.12 and later, missing from the typings this
 * project uses), a third of the cost of createHash().update().digest() for the short texts hashed
 * on every request (session tokens, commands' fingerprints). Same digest either way.
 */
import crypto from "node:crypto";

const oneShot = (crypto as unknown as { hash: (alg: string, text: string) => string }).hash;

export function sha256Hex(text: string): string {
  return oneShot("sha256", text);
}
