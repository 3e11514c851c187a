/**
 * Which idempotency keys may have a stored answer, held in memory by the one writer (the leader,
 * or the single node), so that a command whose key was never used needs no read of the store: most
 * keys are new, and their read was one round trip to PostgreSQL per order, on the event loop's
 * thread, before the command entered the sequencer.
 *
 * Invariant: once complete, the index holds every (user, key) the `idempotency` table holds. It
 * may hold more (a 30-bit hash per key: another key with the same hash; a key of a command that
 * rolled back; a key deleted since): a "maybe" only costs the read it would have cost anyway; a
 * false "no" would answer a repeated order twice, and is never given.
 * - It is complete only after every row committed before it started loading was read (`load`),
 *   and on a node that writes: a leader loads it after its barrier (app.ts), when no other node
 *   can write any longer. Until then every lookup reads the store.
 * - Every row written since goes through insertAnswer, which adds its key before the write.
 * - Rows leave it only when the sweep deleted every row of a whole hour (`forgetUpTo`).
 * - A store changed by hand makes it incomplete again (`forget`).
 */
import assert from "node:assert/strict";
import type { DB } from "./db.js";

const HOUR_MS = 60 * 60 * 1000;
/** Rows read per statement while loading: a short read, however many keys are live. */
export const LOAD_PAGE_ROWS = 10_000;

/** FNV-1a of a user's key, cut to 30 bits: a small integer, which a Set holds compactly. */
function hashOf(userId: number, key: string): number {
  let h = 0x811c9dc5 ^ userId;
  h = Math.imul(h, 0x01000193);
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h & 0x3fffffff;
}

export class KeyIndex {
  /** Key hashes by the hour (ms / HOUR_MS) their answer was stored in. */
  private readonly byHour = new Map<number, Set<number>>();
  private complete = false;
  /** Bumped by forget(): a load begun before it does not make the index complete. */
  private generation = 0;

  /** A key is (or may be about to be) stored at `createdAtMs`. */
  add(userId: number, key: string, createdAtMs: number): void {
    const hour = Math.floor(createdAtMs / HOUR_MS);
    let set = this.byHour.get(hour);
    if (!set) this.byHour.set(hour, (set = new Set()));
    set.add(hashOf(userId, key));
  }

  /** False only when the store surely holds no answer of this key. */
  mayHold(userId: number, key: string): boolean {
    if (!this.complete) return true;
    const h = hashOf(userId, key);
    for (const set of this.byHour.values()) if (set.has(h)) return true;
    return false;
  }

  get isComplete(): boolean {
    return this.complete;
  }

  /** Keys held, counted per hour (a key stored in two hours counts twice). */
  get size(): number {
    let n = 0;
    for (const set of this.byHour.values()) n += set.size;
    return n;
  }

  /** Every answer stored at or before `createdUpToMs` was deleted: whole hours of them are let go. */
  forgetUpTo(createdUpToMs: number): void {
    for (const hour of this.byHour.keys())
      if ((hour + 1) * HOUR_MS - 1 <= createdUpToMs) this.byHour.delete(hour);
  }

  /** The store was changed from outside: every lookup reads it again until the next load. */
  forget(): void {
    this.complete = false;
    this.generation++;
  }

  /**
   * Reads every stored key (pages of LOAD_PAGE_ROWS rows in key order: idempotency-store.ts's
   * loadKeyIndex, off the event loop on PostgreSQL), then counts as complete. Keys stored meanwhile are added by insertAnswer.
   */
  async load(readPage: KeyPageReader, pageRows: number): Promise<void> {
    const generation = this.generation;
    let after = { afterUser: -1, afterKey: "" };
    for (;;) {
      const rows = await readPage(after);
      for (const r of rows) this.add(Number(r.user_id), r.key, Number(r.created_at));
      if (rows.length < pageRows) break;
      const last = rows[rows.length - 1];
      const next = { afterUser: Number(last.user_id), afterKey: String(last.key) };
      // Key order (the store's collation for the key): the user never goes back, the key moves.
      assert(
        Number.isInteger(next.afterUser) &&
          next.afterUser >= after.afterUser &&
          (next.afterUser !== after.afterUser || next.afterKey !== after.afterKey),
        "a page of stored keys moves forward",
      );
      after = next;
    }
    if (generation === this.generation) this.complete = true;
  }
}

/** A stored key, as the index reads it. */
export interface StoredKey {
  user_id: number;
  key: string;
  created_at: number;
}

/** Reads the stored keys after a key, in key order: at most a page of them. */
export type KeyPageReader = (after: {
  afterUser: number;
  afterKey: string;
}) => Promise<StoredKey[]>;

const indexes = new WeakMap<DB, KeyIndex>();

/** The store's key index (one per store handle: one per node and role). */
export function keyIndexOf(db: DB): KeyIndex {
  let index = indexes.get(db);
  if (!index) indexes.set(db, (index = new KeyIndex()));
  return index;
}
