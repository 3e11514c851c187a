/**
 * Idempotency keys of the engine's commands, per user: the same key with the same request again
 * answers the first result; the same key with another request (another route, other parameters)
 * is refused with HTTP 422 and changes nothing. A key lives IDEMPOTENCY_TTL_MS: older keys count
 * as unused at once (a new answer replaces an expired one), and are deleted by the leader's sweep
 * (IdempotencySweep) every PURGE_EVERY_MS, through the sequencer and in commands of at most
 * PURGE_ROWS_PER_COMMAND rows: no command of a user pays for the deletion of others' keys.
 *
 * In the sequencer (platform/store/sequencer.ts) a command looks its key up without a read of the
 * store: the request read the key ahead (prefetch, off the event loop: what was committed), and the
 * answers this process committed since are kept in memory (RECENT_MS). A key stored earlier in the
 * same batch, not yet committed, is looked up in the store (which sees the batch's own writes). On
 * the node that writes, a key never stored is known without any read (idempotency-index.ts).
 */
import type { DB } from "./db.js";
import { sha256Hex } from "./sha256.js";
import { DomainError, CODE_FAIL } from "./errors.js";
import {
  findAnswer,
  findAnswerLater,
  IDEMPOTENCY_TTL_MS,
  insertAnswer,
  purgeAnswers,
  type StoredAnswer,
} from "./idempotency-store.js";
import { afterBatch, afterCommit, inBatch } from "./store/sequencer.js";
import { PeriodicJob, type StoreJobDeps } from "./periodic.js";
import { keyIndexOf } from "./idempotency-index.js";

/** How long a key answers its first result (24 h; kept beside the statement that holds it). */
export { IDEMPOTENCY_TTL_MS };

/** How often the leader deletes expired keys (ms). */
export const PURGE_EVERY_MS = 60 * 1000;
/** Expired keys deleted by one command of the sweep: a short batch, however many expired at once. */
export const PURGE_ROWS_PER_COMMAND = 2_000;

/** A key read ahead answers its command for this long; a later command reads the store again. */
export const AHEAD_VALID_MS = 60 * 1000;
/**
 * Answers committed by this process are kept in memory this long: longer than AHEAD_VALID_MS, so
 * a key read ahead before another command of this process committed it is still found here.
 */
export const RECENT_MS = 5 * 60 * 1000;

interface Kept {
  answer: StoredAnswer | null;
  at: number;
}

const keyOf = (userId: number, key: string) => `${userId}\n${key}`;

/**
 * A JSON text of `v` with object keys sorted, so equal requests give equal texts. An object whose
 * keys are already in order (a parsed command's usually are) is written as it is; JavaScript puts
 * integer-like keys first in either case, so both paths give the same text.
 */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (!x || typeof x !== "object" || Array.isArray(x)) return x;
    const keys = Object.keys(x);
    if (inOrder(keys)) return x;
    keys.sort();
    const sorted: Record<string, unknown> = {};
    for (const k of keys) sorted[k] = (x as Record<string, unknown>)[k];
    return sorted;
  });
}

function inOrder(keys: string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] >= keys[i]) return false;
  return true;
}

/** The fingerprint of a command: its route and its parsed parameters (SHA-256, hex). */
export function requestHash(route: string, params: unknown): string {
  return sha256Hex(route + "\n" + (canonical(params) ?? ""));
}

export class Idempotency {
  /** Keys read ahead of their commands (prefetch), oldest first. */
  private readonly ahead = new Map<string, Kept>();
  /** Answers committed by this process's batches, oldest first. */
  private readonly recent = new Map<string, Kept>();
  /** Keys stored in the batch under way, not yet committed (or rolled back with their command). */
  private readonly uncommitted = new Set<string>();

  constructor(
    private readonly db: DB,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The stored answer of `key` for this request (none without a key, or for an unused or expired
   * key); idempotency_key_reused (HTTP 422) when the key was used for another request.
   */
  lookup<T>(userId: number, key: string | null, route: string, params: unknown): T | undefined {
    if (!key) return undefined;
    const r = this.known(userId, key);
    if (!r) return undefined;
    if (r.request_hash !== requestHash(route, params))
      throw new DomainError("idempotency_key_reused", CODE_FAIL, {}, 422);
    return JSON.parse(r.response) as T;
  }

  /**
   * Reads a key's stored answer ahead of its command, without holding the event loop, so that the
   * command's lookup needs no read of the store. Nothing without a key.
   */
  async prefetch(userId: number, key: string | null): Promise<void> {
    if (!key) return;
    const at = this.now();
    const answer = await findAnswerLater(this.db, {
      userId,
      key,
      createdAfter: at - IDEMPOTENCY_TTL_MS,
    });
    const k = keyOf(userId, key);
    this.ahead.delete(k);
    this.ahead.set(k, { answer: answer ?? null, at });
    this.forgetOld();
  }

  /** The live stored answer of a key: from memory when it is known there, else from the store. */
  private known(userId: number, key: string): StoredAnswer | undefined {
    const k = keyOf(userId, key);
    const now = this.now();
    if (!this.uncommitted.has(k)) {
      const mine = this.recent.get(k);
      if (mine && now - mine.at < RECENT_MS) return mine.answer!;
      const read = this.ahead.get(k);
      this.ahead.delete(k);
      if (read && now - read.at < AHEAD_VALID_MS) return read.answer ?? undefined;
    }
    return findAnswer(this.db, { userId, key, createdAfter: now - IDEMPOTENCY_TTL_MS });
  }

  /** Keys stored by commands whose batch has not ended yet (0 between batches). */
  get uncommittedKeys(): number {
    return this.uncommitted.size;
  }

  /**
   * Forgets every key held in memory, so that lookups read the store again: for a store changed
   * from outside the engine (a repair by hand, a test that ages a key).
   */
  forgetKept(): void {
    this.ahead.clear();
    this.recent.clear();
    keyIndexOf(this.db).forget();
  }

  private forgetOld(): void {
    const now = this.now();
    for (const [k, v] of this.ahead) {
      if (now - v.at < AHEAD_VALID_MS) break;
      this.ahead.delete(k);
    }
    for (const [k, v] of this.recent) {
      if (now - v.at < RECENT_MS) break;
      this.recent.delete(k);
    }
  }

  /** Stores the answer of `key` (inside the command's transaction; nothing without a key). */
  store(userId: number, key: string | null, route: string, params: unknown, data: unknown): void {
    if (!key) return;
    const now = this.now();
    const hash = requestHash(route, params);
    const response = JSON.stringify(data);
    // Invariant: a key is stored only after lookup found no live answer of it, in the same
    // transaction of the one writer (insertAnswer checks it).
    insertAnswer(this.db, {
      userId,
      key,
      route,
      requestHash: hash,
      response,
      // An expired answer of the key not deleted yet is replaced.
      createdAt: now,
    });
    if (inBatch(this.db)) this.keep(keyOf(userId, key), { request_hash: hash, response }, now);
  }

  /**
   * Keeps a batch's answer in memory once its batch committed (never when its command or the batch
   * rolled back); the key counts as uncommitted (looked up in the store) until its batch ended.
   */
  private keep(k: string, answer: StoredAnswer, at: number): void {
    this.uncommitted.add(k);
    afterCommit(this.db, () => {
      this.recent.delete(k);
      this.recent.set(k, { answer, at });
      this.forgetOld();
    });
    afterBatch(this.db, () => this.uncommitted.delete(k));
  }
}

/**
 * The leader's deletion of expired keys: every PURGE_EVERY_MS, commands of the sequencer (so that
 * they are serialised with every other writer) of at most PURGE_ROWS_PER_COMMAND rows each, until
 * none is left.
 */
export class IdempotencySweep {
  private readonly job: PeriodicJob<number>;

  constructor(private readonly o: StoreJobDeps) {
    this.job = new PeriodicJob(() => this.deleteAll(), PURGE_EVERY_MS, o.onError);
  }

  /** Deletes every key expired by now; resolves with how many. One sweep at a time. */
  sweep(): Promise<number> {
    return this.job.run();
  }

  private async deleteAll(): Promise<number> {
    const createdUpTo = (this.o.now ?? Date.now)() - IDEMPOTENCY_TTL_MS;
    let deleted = 0;
    for (;;) {
      const n = await this.o.run(() =>
        purgeAnswers(this.o.db, { createdUpTo, limit: PURGE_ROWS_PER_COMMAND }),
      );
      deleted += n;
      if (n < PURGE_ROWS_PER_COMMAND) {
        // Every answer stored up to then is deleted: the index lets their hours go.
        keyIndexOf(this.o.db).forgetUpTo(createdUpTo);
        return deleted;
      }
    }
  }

  start(): void {
    this.job.start({ now: false });
  }

  stop(): void {
    this.job.stop();
  }
}
