/** Password hashing with argon2id (OWASP parameters: 19 MiB, 2 passes, 1 lane). */
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
