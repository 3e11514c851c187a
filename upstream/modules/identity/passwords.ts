/**
 * Passwords: hashing with argon2id (OWASP parameters: 19 MiB, 2 passes, 1 lane), and the list of
 * common passwords a new one may not be (common-passwords.txt, about 1,000, compared ignoring case).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import argon2 from "argon2";

const OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(plain: string): Promise<string> {
  return argon2.hash(plain, OPTIONS);
}

let dummy: Promise<string> | null = null;

/**
 * True when the password matches the hash. With no hash (unknown account) it still runs one
 * verification against a dummy hash, so that response time does not reveal which accounts exist.
 */
export async function verifyPassword(
  hash: string | null | undefined,
  plain: string,
): Promise<boolean> {
  try {
    if (!hash) {
      dummy ??= hashPassword("tradepost-dummy-password");
      await argon2.verify(await dummy, plain);
      return false;
    }
    return await argon2.verify(hash, plain);
  } catch {
    return false;
  }
}

let common: Set<string> | null = null;

/** Whether `pw` is on the list of common passwords (common-passwords.txt), ignoring case. */
export function isCommonPassword(pw: string): boolean {
  if (!common) {
    const file = path.join(path.dirname(fileURLToPath(import.meta.url)), "common-passwords.txt");
    common = new Set(
      fs
        .readFileSync(file, "utf8")
        .split("\n")
        .map((l) => l.trim().toLowerCase())
        .filter((l) => l !== "" && !l.startsWith("#")),
    );
  }
  return common.has(pw.toLowerCase());
}
