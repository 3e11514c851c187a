/**
 * Sessions answered from memory (platform/session-cache.ts through http/auth.ts): a checked token
 * needs no read of the store until its entry is a minute old; revocations, expiry and idle time
 * end it at once; what can change of the user (contacts, balance) is always read as it is now.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { openDb, type SqliteDb } from "../../upstream/platform/db.js";
import {
  issueToken,
  revokeAllTokens,
  revokeToken,
  tokenHash,
  userForToken,
  userRowLater,
} from "../../upstream/platform/http/auth.js";
import { MAX_AGE_MS, sessionCacheOf } from "../../upstream/platform/session-cache.js";
import { revokeTokensExcept } from "../../upstream/modules/identity/store.js";

const HOUR_S = 3600;
const dbs: SqliteDb[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const db of dbs.splice(0)) db.close();
});

function store(): SqliteDb {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.parse("2026-11-25T12:00:00Z") });
  const db = openDb(":memory:");
  dbs.push(db);
  return db;
}

function newUser(db: SqliteDb, n: number): number {
  return Number(
    db
      .prepare("INSERT INTO users (uid, email, invite_code, created_at) VALUES (?, ?, ?, 0)")
      .run(`s${n}`, `s${n}@example.com`, `S${n}`).lastInsertRowid,
  );
}

describe("sessions answered from memory", () => {
  it("a checked token is answered without a read of the store, for at most MAX_AGE_MS", () => {
    const db = store();
    const id = newUser(db, 1);
    const token = issueToken(db, id, 24 * HOUR_S, 24 * HOUR_S);
    expect(userForToken(db, token)?.id).toBe(id);
    // Gone from the store (a repair by hand): memory still answers, until its entry is too old.
    db.prepare("DELETE FROM tokens").run();
    expect(userForToken(db, token)?.id).toBe(id);
    vi.setSystemTime(Date.now() + MAX_AGE_MS);
    expect(userForToken(db, token)).toBeNull();
  });

  it("a revoked token, or every token of a user, is refused at once", () => {
    const db = store();
    const a = newUser(db, 1);
    const b = newUser(db, 2);
    const t1 = issueToken(db, a, HOUR_S, HOUR_S);
    const t2 = issueToken(db, a, HOUR_S, HOUR_S);
    const t3 = issueToken(db, a, HOUR_S, HOUR_S);
    const other = issueToken(db, b, HOUR_S, HOUR_S);
    for (const t of [t1, t2, t3, other]) expect(userForToken(db, t)).not.toBeNull();
    revokeToken(db, t1);
    expect(userForToken(db, t1)).toBeNull();
    expect(userForToken(db, t2)?.id).toBe(a);
    // A password change ends every other session of the account (identity's revokeTokensExcept).
    expect(revokeTokensExcept(db, a, t3)).toEqual([tokenHash(t2)]);
    expect(userForToken(db, t2)).toBeNull();
    expect(userForToken(db, t3)?.id).toBe(a);
    revokeAllTokens(db, a);
    expect(userForToken(db, t3)).toBeNull();
    expect(userForToken(db, other)?.id).toBe(b);
    expect(sessionCacheOf(db).size).toBe(1);
  });

  it("ends a session at its expiry and after its idle time, from memory", () => {
    const db = store();
    const id = newUser(db, 1);
    const short = issueToken(db, id, 120, 3600);
    const idle = issueToken(db, id, 3600, 100);
    expect(userForToken(db, short)?.id).toBe(id);
    expect(userForToken(db, idle)?.id).toBe(id);
    vi.setSystemTime(Date.now() + 50_000);
    expect(userForToken(db, idle)?.id).toBe(id);
    // 110 s after its last recorded use (the store records a use at most once a minute).
    vi.setSystemTime(Date.now() + 60_000);
    expect(userForToken(db, idle)).toBeNull();
    vi.setSystemTime(Date.now() + 10_000);
    expect(userForToken(db, short)).toBeNull();
  });

  it("what can change of the user is read as it is now, never kept", async () => {
    const db = store();
    const id = newUser(db, 1);
    const token = issueToken(db, id, HOUR_S, HOUR_S);
    const u = userForToken(db, token)!;
    expect(Object.keys(u).sort()).toEqual(["created_at", "id", "invite_code", "is_demo", "uid"]);
    db.prepare("UPDATE users SET email = 'new@example.com', balance_micro = 5 WHERE id = ?").run(
      id,
    );
    expect(await userRowLater(db, id)).toMatchObject({
      id,
      email: "new@example.com",
      balance_micro: 5,
    });
  });
});
