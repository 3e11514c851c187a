/**
 * SQLite's batches made durable without holding the event loop (decision 0029).
 *
 * A SQLite commit with synchronous=FULL returns once the write-ahead log is fsynced: the event loop
 * waits on the disk for every batch (on this machine's disk a quarter of the leader's time at full
 * load). With `syncLater(db)`, the sequencer's batch (`batchWrites`) commits with synchronous=OFF
 * (its frames written to the log, not synced), and its promise settles only once a worker thread
 * (sqlite-wal-worker.mjs) has fdatasync'ed the log: the batch's answers and events wait for that,
 * as they wait for PostgreSQL's commit (store/sequencer.ts), and a failed sync stops the node.
 *
 * Why this is as durable as synchronous=FULL:
 * - The log is append-only between checkpoints, so a sync of the log file after the commit puts
 *   every frame before it on the disk, the commit frame included: what FULL does at the commit.
 * - A frame is copied into the database file only by a checkpoint, and a checkpoint may reset the
 *   log (later writes overwrite it from its start) only once the database file is synced. The main
 *   connection therefore never checkpoints (wal_autocheckpoint = 0): the worker's connection does,
 *   with synchronous=FULL, which syncs the log before it copies and the database file after.
 *   Another process's connection (the operator's command) checkpoints the same way (openDb sets
 *   FULL).
 * - Only the sequencer's batch commits with OFF; every other transaction on the connection keeps
 *   FULL (and its sync covers the batch's frames before it as well).
 * A crash of the process after the commit and before the sync loses nothing (the frames are in the
 * operating system's cache); a power cut there loses the batch, which was never answered.
 */
import assert from "node:assert/strict";
import { Worker } from "node:worker_threads";
import type Database from "better-sqlite3";
import { BUSY_TIMEOUT_MS, sqliteSynchronous } from "../db.js";

/** How often the worker checkpoints the log into the database file (ms). */
export const CHECKPOINT_EVERY_MS = 1_000;

export interface WalSyncStats {
  /** Log syncs asked for (one per written batch). */
  syncs: number;
  /** Syncs the worker reported done. */
  synced: number;
  /** Checkpoints the worker ran. */
  checkpoints: number;
}

interface Waiting {
  resolve: () => void;
  reject: (err: Error) => void;
}

type FromWorker =
  | { kind: "synced" | "checkpointed"; seq: number; checkpoints: number }
  | { kind: "failed"; seq: number; message: string }
  | { kind: "warn"; message: string };

/** A SQLite store whose sequencer batches become durable later (see the module's comment). */
export type LaterSyncedDb = Database.Database & {
  readonly dialect: "sqlite";
  batchWrites(fn: () => void): Promise<void>;
  readonly walSync: WalSync;
};

export class WalSync {
  readonly stats: WalSyncStats = { syncs: 0, synced: 0, checkpoints: 0 };
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiting>();
  private seq = 0;
  private failure: Error | null = null;
  private closed = false;

  constructor(
    file: string,
    private readonly warn: (message: string) => void = () => undefined,
  ) {
    this.worker = new Worker(new URL("./sqlite-wal-worker.mjs", import.meta.url), {
      workerData: { file, checkpointEveryMs: CHECKPOINT_EVERY_MS, busyTimeoutMs: BUSY_TIMEOUT_MS },
      // Plain JavaScript: none of the process's loaders or preloads (tsx, a bench's probe).
      execArgv: [],
    });
    // An idle worker does not keep the process alive; one with a sync under way does (ref below).
    this.worker.unref();
    this.worker.on("message", (m: FromWorker) => this.onMessage(m));
    this.worker.on("error", (err) => this.failAll(err));
    this.worker.on("exit", (code) =>
      this.failAll(new Error(`the log's sync worker exited (${code})`)),
    );
  }

  /** Resolves once every frame written to the log so far is on the disk. */
  sync(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const seq = ++this.seq;
    this.stats.syncs++;
    return this.ask(seq, { kind: "sync", seq });
  }

  /** Resolves once the worker ran a checkpoint (tests, and a store handed over). */
  checkpoint(): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const seq = ++this.seq;
    return this.ask(seq, { kind: "checkpoint", seq });
  }

  /** Ends the worker; syncs still waiting fail. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.failAll(new Error("the store was closed"));
    // Ended even after a failure, so that its connection to the file is closed too.
    this.worker.postMessage({ kind: "close" });
  }

  private ask(seq: number, msg: object): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(seq, { resolve, reject });
      this.worker.ref();
      this.worker.postMessage(msg);
    });
  }

  private onMessage(m: FromWorker): void {
    if (m.kind === "warn") return this.warn(m.message);
    if ("checkpoints" in m) this.stats.checkpoints = m.checkpoints;
    const w = this.waiting.get(m.seq);
    if (!w) return;
    this.waiting.delete(m.seq);
    if (this.waiting.size === 0) this.worker.unref();
    if (m.kind === "failed") {
      // A failed fsync is not tried again: the kernel may have dropped the pages it could not write.
      this.failAll(new Error(`the log could not be synced: ${m.message}`));
      return w.reject(this.failure!);
    }
    if (m.kind === "synced") this.stats.synced++;
    w.resolve();
  }

  private failAll(err: Error): void {
    this.failure ??= err;
    for (const w of this.waiting.values()) w.reject(this.failure);
    this.waiting.clear();
  }
}

/**
 * Makes the sequencer's batches on `db` (a SQLite file in WAL mode) durable through a WalSync
 * instead of at their commit; `warn` hears a checkpoint that could not run. Returns `db`.
 */
export function syncLater(
  db: Database.Database & { readonly dialect: "sqlite" },
  warn?: (message: string) => void,
): LaterSyncedDb {
  assert(!db.memory && db.pragma("journal_mode", { simple: true }) === "wal", "a WAL file");
  db.pragma("wal_autocheckpoint = 0");
  const walSync = new WalSync(db.name, warn);
  // Prepared at each call (pragma()): a PRAGMA acts when it is prepared, so a prepared statement
  // run again would not.
  const syncOff = () => db.pragma("synchronous = OFF");
  const level = sqliteSynchronous();
  const syncBack = () => db.pragma(`synchronous = ${level}`);
  const close = db.close.bind(db);
  return Object.assign(db, {
    walSync,
    batchWrites(fn: () => void): Promise<void> {
      syncOff();
      try {
        fn();
      } finally {
        syncBack();
      }
      return walSync.sync();
    },
    close() {
      walSync.close();
      return close();
    },
  });
}
