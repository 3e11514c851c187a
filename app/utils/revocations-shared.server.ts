/**
 * Sign-outs the upstream has not confirmed yet, shared by every web node of a cluster (DATABASE_URL)
 * in the table web_pending_signouts (app/utils/web-db.server.ts): any node retries them, and
 * none is lost when the node that queued one dies.
 *
 * - Queuing inserts the token, kept as its SHA-256 and sealed under SESSION_SECRET
 *   (token-seal.server.ts), never as it is (due after the first retry delay).
 * - Every node looks for due rows every `pollMs`. Taking a row is one UPDATE that moves its next try
 *   on by the back-off (the first delay doubling per attempt, up to the longest), under FOR UPDATE
 *   SKIP LOCKED: one node tries a row at a time, and a node that dies while trying leaves it due
 *   again after the delay. The back-off lives in the row, so it survives the node.
 * - A row is deleted once the upstream confirmed the token is no longer valid (the revoke function
 *   answers "done"), or once it is older than `maxAgeMs`.
 * - A sign-out queued while the database cannot be reached is kept in this node's memory, tried at
 *   the upstream directly and written to the table on each pass until one of them works.
 *
 * Invariant: a token leaves the table only after the upstream confirmed it is no longer valid, or
 * after `maxAgeMs`.
 */
import type pg from "pg";
import type { TokenSeal } from "./token-seal.server";

export interface SharedRevocationOptions {
  /** How often this node looks for due rows. */
  pollMs: number;
  /** First retry delay, doubling per attempt up to maxRetryMs. */
  firstRetryMs: number;
  maxRetryMs: number;
  /** Rows older than this are dropped: the upstream has ended the token itself by then. */
  maxAgeMs: number;
  /** Rows taken in one pass at most. */
  batch: number;
}

type Revoke = (token: string) => Promise<"done" | "retry">;

/** Doublings of the retry delay at most (the cap is reached long before; keeps power() finite). */
const MAX_DOUBLINGS = 30;

const INSERT = `
  INSERT INTO web_pending_signouts (token_hash, sealed, since, attempts, next_at)
  VALUES ($1, $2, to_timestamp($3::float8 / 1000), 0,
    now() + make_interval(secs => $4::float8 / 1000))
  ON CONFLICT (token_hash) DO UPDATE
    SET attempts = 0, next_at = LEAST(web_pending_signouts.next_at, EXCLUDED.next_at)`;

const TAKE_DUE = `
  WITH due AS (
    SELECT token_hash FROM web_pending_signouts
    WHERE next_at <= now()
    ORDER BY next_at
    LIMIT $3
    FOR UPDATE SKIP LOCKED
  )
  UPDATE web_pending_signouts AS p
  SET attempts = p.attempts + 1,
      next_at = now() + make_interval(secs =>
        LEAST($1::float8 * power(2, LEAST(p.attempts, ${MAX_DOUBLINGS})), $2::float8) / 1000)
  FROM due
  WHERE p.token_hash = due.token_hash
  RETURNING p.token_hash, p.sealed, (extract(epoch FROM p.since) * 1000)::float8 AS since_ms`;

const DELETE_DONE = `DELETE FROM web_pending_signouts WHERE token_hash = ANY($1::text[])`;

function log(msg: string, detail: Record<string, unknown> = {}): void {
  console.warn(JSON.stringify({ svc: "web", msg, ...detail }));
}

export class SharedRevocations {
  /** Sign-outs not yet written to the table (the database was away): token → since (ms). */
  private readonly unsaved = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** The last pass failed (its failure is logged once, and its end). */
  private failing = false;

  constructor(
    private readonly db: () => Promise<pg.Pool>,
    private readonly revoke: Revoke,
    private readonly o: SharedRevocationOptions,
    /** How a token is kept in the table: its hash as the key, sealed (token-seal.server.ts). */
    private readonly seal: TokenSeal,
  ) {}

  /** Keeps `token` for revocation by any node; starts this node's passes. */
  async add(token: string, now = Date.now()): Promise<void> {
    try {
      await this.insert(token, now);
    } catch (err) {
      this.unsaved.set(token, now);
      log("sign-out kept in memory: the database cannot be reached", {
        err: (err as Error).message,
      });
    }
    this.start();
  }

  /** Looks for due rows every `pollMs` from now on (idempotent). */
  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.pass(), this.o.pollMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One pass (a pass already running is waited for instead of run twice). */
  pass(): Promise<void> {
    this.running ??= this.passNow()
      .then(
        () => {
          if (this.failing) log("pending sign-outs retried again");
          this.failing = false;
        },
        (err: Error) => {
          if (!this.failing) log("pending sign-outs not retried", { err: err.message });
          this.failing = true;
        },
      )
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async insert(token: string, since: number): Promise<void> {
    const db = await this.db();
    await db.query(INSERT, [
      this.seal.id(token),
      this.seal.seal(token),
      since,
      this.o.firstRetryMs,
    ]);
  }

  private async passNow(): Promise<void> {
    await this.saveUnsaved();
    const db = await this.db();
    const taken = await db.query<{ token_hash: string; sealed: string; since_ms: number }>(
      TAKE_DUE,
      [this.o.firstRetryMs, this.o.maxRetryMs, this.o.batch],
    );
    const done: string[] = [];
    const now = Date.now();
    for (const row of taken.rows) {
      const token = this.seal.open(row.sealed);
      // Sealed under a secret no longer configured: it cannot be sent, and is dropped.
      if (token === null) log("pending sign-out dropped: no SESSION_SECRET opens it");
      if (
        token === null ||
        now - row.since_ms > this.o.maxAgeMs ||
        (await this.revoke(token)) === "done"
      )
        done.push(row.token_hash);
    }
    if (done.length) await db.query(DELETE_DONE, [done]);
  }

  /** Writes the sign-outs kept in memory to the table, or revokes them at once. */
  private async saveUnsaved(): Promise<void> {
    for (const [token, since] of [...this.unsaved]) {
      if (Date.now() - since > this.o.maxAgeMs || (await this.revoke(token)) === "done") {
        this.unsaved.delete(token);
        continue;
      }
      try {
        await this.insert(token, since);
        this.unsaved.delete(token);
      } catch {
        // Still away: kept in memory for the next pass.
      }
    }
  }
}
