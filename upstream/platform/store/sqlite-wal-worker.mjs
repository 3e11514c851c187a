/**
 * The worker thread behind SQLite's later durability (sqlite-wal-sync.ts). It holds a connection of
 * its own to the store's file and does the two things that wait on the disk, so the node's event
 * loop never does:
 * - on a message (a batch's sequence number), fdatasync of the write-ahead log, then the answer:
 *   from then on every frame the main connection had written, the batch's commit included, is on
 *   the disk;
 * - checkpoints (PASSIVE, this connection's synchronous=FULL: the log is synced before its frames
 *   are copied, the database file after), every CHECKPOINT_EVERY_MS, since the main connection no
 *   longer checkpoints on its own (wal_autocheckpoint = 0 there).
 * A failure is answered, never swallowed: the main thread stops the node.
 */
import fs from "node:fs";
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

/** @type {{ file: string, checkpointEveryMs: number, busyTimeoutMs: number }} */
const { file, checkpointEveryMs, busyTimeoutMs } = workerData;
const db = new Database(file, { fileMustExist: true });
db.pragma(`busy_timeout = ${busyTimeoutMs}`);
db.pragma("synchronous = FULL");
const checkpoint = db.prepare("PRAGMA wal_checkpoint(PASSIVE)");

/** The log's descriptor, opened at the first sync: the log stays while this connection is open. */
let walFd = null;
let checkpoints = 0;
let lastCheckpointAt = 0;

function checkpointNow() {
  checkpoint.get();
  checkpoints++;
  lastCheckpointAt = Date.now();
}

function checkpointWhenDue() {
  if (Date.now() - lastCheckpointAt < checkpointEveryMs) return;
  try {
    checkpointNow();
  } catch (err) {
    // A checkpoint that finds the file busy beyond busy_timeout tries again at the next turn; the
    // log only grows meanwhile, and every commit in it is already synced.
    parentPort.postMessage({ kind: "warn", message: String(err?.message ?? err) });
  }
}

parentPort.on("message", (msg) => {
  if (msg.kind === "sync") {
    try {
      walFd ??= fs.openSync(`${file}-wal`, "r");
      fs.fdatasyncSync(walFd);
      parentPort.postMessage({ kind: "synced", seq: msg.seq, checkpoints });
    } catch (err) {
      parentPort.postMessage({
        kind: "failed",
        seq: msg.seq,
        message: String(err?.message ?? err),
      });
      return;
    }
    checkpointWhenDue();
  } else if (msg.kind === "checkpoint") {
    checkpointNow();
    parentPort.postMessage({ kind: "checkpointed", seq: msg.seq, checkpoints });
  } else if (msg.kind === "close") {
    if (walFd !== null) fs.closeSync(walFd);
    db.close();
    parentPort.close();
  }
});

const timer = setInterval(checkpointWhenDue, checkpointEveryMs);
parentPort.on("close", () => clearInterval(timer));
