/**
 * The `idempotency` table (migrations 001 and 006): per user and key, the route, the request's
 * fingerprint and the JSON answer of the first command, with its time.
 */
import type { DB } from "./db.js";
import { allLater, getLater } from "./store/read-later.js";
import { expectChanges } from "./store/expect-changes.js";
import { LOAD_PAGE_ROWS, keyIndexOf, type StoredKey } from "./idempotency-index.js";

/** A stored answer: the fingerprint of its request and the answer as JSON text. */
export interface StoredAnswer {
  request_hash: string;
  response: string;
}

/**
 * How long a key's answer lives (ms): a key sent again later than this counts as new. Written into
 * the insert's text as a number, not sent as a parameter: a batch's answers then go as one
 * prepared statement over arrays (store/pg-unnest.mjs takes no parameter outside the rows).
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

const FIND = `SELECT request_hash, response FROM idempotency
       WHERE user_id = @userId AND key = @key AND created_at > @createdAfter`;

/** The stored keys after (@afterUser, @afterKey), in key order: a page of the index's load. */
const KEYS_PAGE = `SELECT user_id, key, created_at FROM idempotency
       WHERE (user_id, key) > (@afterUser, @afterKey) ORDER BY user_id, key LIMIT @limit`;

function prepare(db: DB) {
  return {
    find: db.prepare(FIND),
    // Run through allLater (storedKeysLater); prepared here with the file's other statements.
    keysPage: db.prepare(KEYS_PAGE),
    insert: db.prepare(
      `INSERT INTO idempotency (user_id, key, route, request_hash, response, created_at)
       VALUES (@userId, @key, @route, @requestHash, @response, @createdAt)
       ON CONFLICT (user_id, key) DO UPDATE SET route = excluded.route,
         request_hash = excluded.request_hash, response = excluded.response,
         created_at = excluded.created_at
       WHERE idempotency.created_at <= excluded.created_at - ${IDEMPOTENCY_TTL_MS}`,
    ),
    // The oldest first, at most @limit rows: one short statement however many expired at once
    // (idempotency_created orders them; (user_id, key) is the table's primary key).
    purge: db.prepare(
      `DELETE FROM idempotency WHERE (user_id, key) IN (
         SELECT user_id, key FROM idempotency WHERE created_at <= @createdUpTo
         ORDER BY created_at LIMIT @limit)`,
    ),
  };
}

const statements = new WeakMap<DB, ReturnType<typeof prepare>>();

function stmts(db: DB): ReturnType<typeof prepare> {
  let s = statements.get(db);
  if (!s) statements.set(db, (s = prepare(db)));
  return s;
}

/**
 * The answer stored for a user's key after `createdAfter` (ms), if any: no read when the store's
 * key index (idempotency-index.ts) knows the key was never stored.
 */
export function findAnswer(
  db: DB,
  q: { userId: number; key: string; createdAfter: number },
): StoredAnswer | undefined {
  if (!keyIndexOf(db).mayHold(q.userId, q.key)) return undefined;
  return stmts(db).find.get(q) as StoredAnswer | undefined;
}

/** findAnswer without holding the event loop (store/read-later.ts): what was committed. */
export async function findAnswerLater(
  db: DB,
  q: { userId: number; key: string; createdAfter: number },
): Promise<StoredAnswer | undefined> {
  if (!keyIndexOf(db).mayHold(q.userId, q.key)) return undefined;
  return (await getLater(db, FIND, q)) as StoredAnswer | undefined;
}

/**
 * Up to `limit` stored keys after (afterUser, afterKey) in key order (user, then key), without
 * holding the event loop: what was committed.
 */
export async function storedKeysLater(
  db: DB,
  q: { afterUser: number; afterKey: string; limit: number },
): Promise<StoredKey[]> {
  return (await allLater(db, KEYS_PAGE, q)) as StoredKey[];
}

/** Loads the store's key index (KeyIndex.load) from what the store holds, a page of rows at a time. */
export function loadKeyIndex(db: DB, pageRows = LOAD_PAGE_ROWS): Promise<void> {
  return keyIndexOf(db).load(
    (after) => storedKeysLater(db, { ...after, limit: pageRows }),
    pageRows,
  );
}

/**
 * Stores the answer of a user's key, over an expired answer of the same key (stored
 * IDEMPOTENCY_TTL_MS or more before `createdAt`). A live answer of the key stored already is a broken invariant (the one writer looked
 * the key up first): the write then fails, when its result arrives (expectChanges: inside the
 * sequencer's batch on PostgreSQL the insert waits, and the batch fails).
 */
export function insertAnswer(
  db: DB,
  a: {
    userId: number;
    key: string;
    route: string;
    requestHash: string;
    response: string;
    createdAt: number;
  },
): void {
  // Indexed before the write: the index may hold more than the store, never less.
  keyIndexOf(db).add(a.userId, a.key, a.createdAt);
  expectChanges(
    stmts(db).insert.run(a),
    1,
    `idempotency: a live key was stored again (user ${a.userId})`,
  );
}

/** Deletes the oldest `limit` answers stored at or before `createdUpTo` (ms); how many it deleted. */
export function purgeAnswers(db: DB, q: { createdUpTo: number; limit: number }): number {
  return stmts(db).purge.run(q).changes;
}
