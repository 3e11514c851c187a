/**
 * The engine's leadership on PostgreSQL (upstream/platform/store/leader-lock.ts): one holder at a
 * time; a holder whose lock connection dies loses it at once (PostgreSQL frees the lock with the
 * connection) and is told; and from that moment its fenced store refuses every write transaction,
 * so a deposed leader that has not noticed yet changes nothing. The lock connection's health is its
 * own answers: a leader whose event loop was held for seconds keeps the lead, one whose connection
 * stops answering loses it. And a store whose connection breaks inside a transaction fails that
 * whole transaction: nothing of it commits on a new connection.
 */
import { execFileSync } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../../scripts/services/postgres.js";
import { openPostgres, type DB } from "../../upstream/platform/db.js";
import type { PgStore } from "../../upstream/platform/store/pg.js";
import {
  LeaderLock,
  POLL_MS,
  UNANSWERED_POLLS,
  leaderFenceSql,
} from "../../upstream/platform/store/leader-lock.js";

let server: PostgresServer;
let url: string;
const quiet = { info() {}, error() {} };
const closers: Array<() => Promise<void> | void> = [];

beforeAll(async () => {
  execFileSync("bash", ["scripts/ensure-services.sh"], { stdio: "ignore" });
  server = await startPostgres({ durable: false });
  url = await server.createDatabase("leadership_test");
}, 60_000);

afterAll(async () => {
  for (const c of closers.reverse()) await c();
  await server?.stop();
});

async function lock(): Promise<LeaderLock> {
  const l = new LeaderLock(url, quiet);
  await l.connect();
  closers.push(() => l.close());
  return l;
}

/**
 * Ends another session as a network cut or a killed process would, and returns once it has ended
 * (its locks released): pg_terminate_backend only signals the session unless given a time-out.
 */
async function terminate(backendPid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  const r = await admin.query<{ ended: boolean }>(
    "SELECT pg_terminate_backend($1, 10000) AS ended",
    [backendPid],
  );
  await admin.end();
  if (!r.rows[0].ended) throw new Error(`session ${backendPid} did not end within 10 s`);
}

function store(): DB {
  const db = openPostgres(url);
  closers.push(() => db.close());
  return db;
}

describe("the engine's leadership", () => {
  it("has one holder; when its connection dies, it is told and another takes it", async () => {
    const a = await lock();
    const b = await lock();
    expect(await a.tryAcquire()).toBe(true);
    expect(await b.tryAcquire()).toBe(false);
    const lost = new Promise<string>((resolve) => a.onLost(resolve));
    await terminate(a.backendPid);
    expect(await lost).toMatch(/lock/);
    expect(a.isLeader).toBe(false);
    await expect.poll(() => b.tryAcquire(), { timeout: 5_000 }).toBe(true);
    // A clean stop hands the leadership over at once.
    await b.close();
    const c = await lock();
    expect(await c.tryAcquire()).toBe(true);
    await c.close();
  });

  it("fences the deposed leader's store: its writes fail and change nothing", async () => {
    const l = await lock();
    expect(await l.tryAcquire()).toBe(true);
    const db = store();
    (db as PgStore).fenceWith(leaderFenceSql(l.backendPid));
    const write = db.transaction((key: string) =>
      db.prepare("INSERT INTO settings (key, value) VALUES (?, 'x')").run(key),
    );
    write("while.leading");
    await terminate(l.backendPid);
    expect(() => write("after.deposed")).toThrow(/no longer leads/);
    const keys = db
      .prepare("SELECT key FROM settings WHERE key LIKE '%.%ing' OR key = 'after.deposed'")
      .all();
    expect(keys).toEqual([{ key: "while.leading" }]);
    // The failed transaction left the connection usable: reads still answer.
    expect(
      db.prepare("SELECT COUNT(*) AS n FROM settings WHERE key = 'after.deposed'").get(),
    ).toEqual({ n: 0 });
  });
});

/** Holds this process's event loop for `ms`, as a long synchronous piece of work would. */
function holdEventLoop(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

describe("the lock connection's health", () => {
  it("a leader whose event loop is held for 5 s while a check is in flight keeps the lead", async () => {
    const l = await lock();
    expect(await l.tryAcquire()).toBe(true);
    const lost: string[] = [];
    l.onLost((why) => lost.push(why));
    const answered = l.check();
    holdEventLoop(5_000);
    await answered;
    // The polls that follow find the connection answering.
    await new Promise((r) => setTimeout(r, POLL_MS * 3));
    expect(lost).toEqual([]);
    expect(l.isLeader).toBe(true);
    const other = await lock();
    expect(await other.tryAcquire()).toBe(false);
    await l.close();
  });

  it("a leader whose lock connection stops answering loses the lead and frees the lock", async () => {
    const l = await lock();
    expect(await l.tryAcquire()).toBe(true);
    // Settles even when the loss is never noticed, so that the server process is always resumed
    // (a stopped one would hold the server's shutdown forever).
    const lost = new Promise<string>((resolve) => {
      l.onLost(resolve);
      setTimeout(() => resolve("not noticed within 20 s"), 20_000).unref();
    });
    // The connection's server process stops (as a half-open link would): no error, no answer.
    process.kill(l.backendPid, "SIGSTOP");
    try {
      expect(await lost).toMatch(new RegExp(`unanswered for ${UNANSWERED_POLLS} polls`));
      expect(l.isLeader).toBe(false);
    } finally {
      process.kill(l.backendPid, "SIGCONT");
    }
    const next = await lock();
    await expect.poll(() => next.tryAcquire(), { timeout: 5_000 }).toBe(true);
    await next.close();
  });
});

describe("a store whose connection breaks inside a transaction", () => {
  it("fails the whole transaction; nothing of it is written, and the store works afterwards", async () => {
    const db = store();
    const admin = store();
    db.exec("CREATE TABLE broken_tx (n INTEGER)");
    const pid = Number((db.prepare("SELECT pg_backend_pid() AS pid").get() as { pid: number }).pid);
    const insert = db.prepare("INSERT INTO broken_tx (n) VALUES (?)");
    const write = db.transaction(() => {
      insert.run(1);
      admin.prepare("SELECT pg_terminate_backend(?, 10000)").get(pid);
      insert.run(2);
      insert.run(3);
    });
    expect(() => write()).toThrow();
    // The next transaction runs on a new connection, with all of its statements.
    db.transaction(() => insert.run(4))();
    expect(db.prepare("SELECT n FROM broken_tx ORDER BY n").all()).toEqual([{ n: 4 }]);
  });
});
