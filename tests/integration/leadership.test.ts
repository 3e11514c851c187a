/**
 * The engine's leadership on PostgreSQL (upstream/platform/store/leader-lock.ts): one holder at a
 * time; a holder whose lock connection dies loses it at once (PostgreSQL frees the lock with the
 * connection) and is told; and from that moment its fenced store refuses every write transaction,
 * so a deposed leader that has not noticed yet changes nothing.
 */
import { execFileSync } from "node:child_process";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../../scripts/services/postgres.js";
import { openPostgres, type DB } from "../../upstream/platform/db.js";
import type { PgStore } from "../../upstream/platform/store/pg.js";
import { LeaderLock, leaderFenceSql } from "../../upstream/platform/store/leader-lock.js";

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

/** Ends another session as a network cut or a killed process would. */
async function terminate(backendPid: number): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query("SELECT pg_terminate_backend($1)", [backendPid]);
  await admin.end();
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
