/**
 * Two web nodes (the real server.ts) in cluster mode, the same SESSION_SECRET and DATABASE_URL (a
 * real PostgreSQL server), in front of one upstream, with no sticky sessions:
 * - a session made by signing in on node A (with a form node B rendered) works on node B;
 * - a sign-out on node A while the upstream is down is kept in PostgreSQL, and node B revokes the
 *   token once the upstream is back, node A having died (kill -9) meanwhile;
 * - a browser's event stream that ended with node A starts again on node B with a fresh snapshot.
 * Node A's UPSTREAM_URL lists a dead upstream first: every call it makes goes over the failover.
 *
 * Beside it, the shared list of sign-outs (app/utils/revocations-shared.server.ts) on the same
 * server: two nodes never try one row at once, a failed try keeps the row for later, and only a
 * confirmed (or too old) sign-out leaves the table.
 */
import type { ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPostgres, type PostgresServer } from "../../scripts/services/postgres";
import { SharedRevocations } from "../../app/utils/revocations-shared.server";
import { ensureWebTables } from "../../app/utils/web-db.server";
import { tokenSeal } from "../../app/utils/token-seal.server";
import { openStore } from "../../upstream/platform/db.js";
import { EventReader } from "../support/event-reader";
import { until } from "../support/wait";
import {
  cookieHeader,
  freePort,
  keepCookies,
  killProcess,
  postForm,
  spawnUpstream,
  startWeb,
  type WebServer,
} from "./web-harness";

/** Bound of the wait for node B's revocation: the retry back-off (1, 2, 4, 8 s) after the return. */
const REVOKED_BOUND_MS = 20_000;

let postgres: PostgresServer;
let databaseUrl: string;
let upstream: ChildProcess | null = null;
let upPort: number;
let upDir: string;
let a: WebServer;
let b: WebServer;

/** A loopback URL nobody listens on: an upstream node that is down. */
async function deadUrl(): Promise<string> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return `http://127.0.0.1:${port}`;
}

/** The nodes' shared signing secret, which also seals the tokens they keep. */
const sessionSecret = crypto.randomBytes(36).toString("base64");

beforeAll(async () => {
  postgres = await startPostgres({ durable: false });
  databaseUrl = await postgres.createDatabase("web_cluster");
  // The web's tables are made by the upstream's migrations (032), as `npm run migrate` does.
  openStore(databaseUrl).close();
  upPort = await freePort();
  upDir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-cluster-up-"));
  upstream = await spawnUpstream(upPort, upDir);
  const live = `http://127.0.0.1:${upPort}`;
  const shared = { DATABASE_URL: databaseUrl, SESSION_SECRET: sessionSecret };
  [a, b] = await Promise.all([
    startWeb({ env: { ...shared, UPSTREAM_URL: `${await deadUrl()},${live}` } }),
    startWeb({ env: { ...shared, UPSTREAM_URL: live } }),
  ]);
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  if (upstream) await killProcess(upstream);
  await postgres?.stop();
  if (upDir) fs.rmSync(upDir, { recursive: true, force: true });
}, 30_000);

/** The upstream token inside a session cookie (signed, not encrypted: its first part is the data). */
function tokenOf(jar: Map<string, string>): string | undefined {
  const [, value] = [...jar].find(([k]) => k.endsWith("tp_session"))!;
  const data = decodeURIComponent(value).split(".")[0];
  return (JSON.parse(Buffer.from(data, "base64").toString("utf8")) as { token?: string }).token;
}

async function upstreamKnows(token: string): Promise<boolean> {
  const r = await fetch(`http://127.0.0.1:${upPort}/api/user/info`, {
    headers: { authorization: token },
  });
  return ((await r.json()) as { code: number }).code === 1;
}

/** The sign-outs waiting in the shared table, opened with the nodes' SESSION_SECRET. */
async function pendingTokens(): Promise<string[]> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const r = await c.query<{ sealed: string }>("SELECT sealed FROM web_pending_signouts");
    const seal = tokenSeal([sessionSecret]);
    return r.rows.map((row) => seal.open(row.sealed) ?? "(not opened)");
  } finally {
    await c.end();
  }
}

/** The form's CSRF token on `base` + `page`, its cookies kept in `jar`. */
async function csrfOf(base: string, page: string, jar: Map<string, string>): Promise<string> {
  const res = await fetch(base + page, { headers: { cookie: cookieHeader(jar) } });
  keepCookies(res, jar);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await res.text())?.[1];
  if (!csrf) throw new Error(`no csrf token on ${page} (${res.status})`);
  return csrf;
}

const isMarket = (n: number) => (e: { event: string; data: unknown }) =>
  e.event === "DAY_MARKET" && Array.isArray(e.data) && e.data.length === n;

describe("two web nodes in cluster mode", () => {
  it("share sessions and sign-outs, and streams move from a dead node to the other", async () => {
    expect(a.lines.some((l) => l.includes("cluster mode: shared state in DATABASE_URL"))).toBe(
      true,
    );

    // Signed in on A, with the form (and its anti-forgery cookie) that B rendered.
    const jar = new Map<string, string>();
    const loginCsrf = await csrfOf(b.base, "/login", jar);
    const signIn = await postForm(
      a.base,
      "/login?from=%2Fuser",
      { csrf: loginCsrf, intent: "demo" },
      jar,
    );
    expect(signIn.status).toBe(302);
    const token = tokenOf(jar)!;
    expect(token).toBeTruthy();
    for (const node of [b, a]) {
      const user = await fetch(`${node.base}/user`, {
        headers: { cookie: cookieHeader(jar) },
        redirect: "manual",
      });
      expect(user.status, node.base).toBe(200);
    }

    // A browser's stream on A, with a snapshot of every instrument.
    const streamA = new EventReader(
      await fetch(`${a.base}/live?topics=DAY_MARKET`, { headers: { cookie: cookieHeader(jar) } }),
    );
    const first = await streamA.next((e) => e.event === "DAY_MARKET", 10_000);
    const instruments = (first.data as unknown[]).length;
    expect(instruments).toBeGreaterThan(10);

    // The upstream goes down; signing out on A ends the session and keeps the sign-out shared.
    const logoutCsrf = await csrfOf(a.base, "/mine/system", jar);
    await killProcess(upstream!);
    upstream = null;
    const out = await postForm(a.base, "/mine/system", { csrf: logoutCsrf, intent: "logout" }, jar);
    expect(out.status).toBe(302);
    expect(tokenOf(jar)).toBeUndefined();
    expect(await pendingTokens()).toEqual([token]);
    expect(fs.existsSync(path.join(a.dataDir, "pending-revocations.json"))).toBe(false);

    // A dies; its browser's stream ends.
    a.proc.kill("SIGKILL");
    expect(await a.exited(10_000)).not.toBeNull();
    await streamA.ended(10_000);

    // The upstream comes back: B revokes the token A could not, and the row leaves the table.
    upstream = await spawnUpstream(upPort, upDir);
    const back = Date.now();
    const revoked = async () =>
      !(await upstreamKnows(token)) && (await pendingTokens()).length === 0;
    await until("node B revokes node A's sign-out", revoked, REVOKED_BOUND_MS, 200);
    console.info(`node B revoked node A's sign-out ${Date.now() - back} ms after the return`);

    // The browser reconnects, now to B: it starts from a fresh snapshot of every instrument.
    const streamB = new EventReader(
      await fetch(`${b.base}/live?topics=DAY_MARKET`, { headers: { cookie: cookieHeader(jar) } }),
    );
    await streamB.next((e) => e.event === "ready", 5_000);
    const snapshot = await streamB.next(isMarket(instruments), 10_000);
    const newest = Math.max(...(snapshot.data as { Time: number }[]).map((q) => q.Time));
    expect(newest).toBeGreaterThanOrEqual(back);
    await streamB.cancel();
  }, 60_000);
});

describe("the shared list of sign-outs", () => {
  const options = {
    pollMs: 60_000,
    firstRetryMs: 1_000,
    maxRetryMs: 60_000,
    maxAgeMs: 30 * 24 * 3600_000,
    batch: 100,
  };
  let pool: pg.Pool;
  const seal = tokenSeal(["web-cluster-test-secret-0123456789abcdef"]);

  beforeAll(async () => {
    const url = await postgres.createDatabase("web_shared_list");
    openStore(url).close();
    pool = new pg.Pool({ connectionString: url });
    await ensureWebTables(pool, seal);
  });
  afterAll(async () => {
    await pool?.end();
  });

  /** The rows, each with its token as the secret opens it. */
  const rows = async () =>
    (
      await pool.query<{ sealed: string; attempts: number; due: boolean }>(
        "SELECT sealed, attempts, next_at <= now() AS due FROM web_pending_signouts ORDER BY token_hash",
      )
    ).rows.map(({ sealed, ...r }) => ({ token: seal.open(sealed), ...r }));
  /** Makes every row due now (the back-off's wait, skipped). */
  const makeDue = () => pool.query("UPDATE web_pending_signouts SET next_at = now()");

  it("tries each due row on one node at a time and keeps it until the upstream confirms", async () => {
    const tried: string[] = [];
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    // Node 1's upstream call hangs while node 2 passes: node 2 must not take the same row.
    const node1 = new SharedRevocations(
      async () => pool,
      async (t) => {
        tried.push(`1:${t}`);
        await held;
        return "retry";
      },
      options,
      seal,
    );
    const node2 = new SharedRevocations(
      async () => pool,
      async (t) => {
        tried.push(`2:${t}`);
        return "done";
      },
      options,
      seal,
    );
    await node1.add("tok-a");
    await node1.add("tok-a"); // queued twice: kept once
    expect((await rows()).map((r) => r.token)).toEqual(["tok-a"]);
    await makeDue();
    const passing = node1.pass();
    while (tried.length === 0) await new Promise((r) => setTimeout(r, 10));
    await node2.pass();
    expect(tried).toEqual(["1:tok-a"]);
    release();
    await passing;
    // Node 1's try failed: the row stays, due again only after the back-off.
    expect(await rows()).toEqual([{ token: "tok-a", attempts: 1, due: false }]);
    await node2.pass();
    expect(tried).toEqual(["1:tok-a"]);

    await makeDue();
    await node2.pass();
    expect(tried).toEqual(["1:tok-a", "2:tok-a"]);
    expect(await rows()).toEqual([]);
    node1.stop();
    node2.stop();
  });

  it("drops a sign-out older than the session's lifetime without asking the upstream", async () => {
    let asked = 0;
    const node = new SharedRevocations(
      async () => pool,
      async () => {
        asked++;
        return "retry";
      },
      options,
      seal,
    );
    await node.add("tok-old", Date.now() - options.maxAgeMs - 60_000);
    await makeDue();
    await node.pass();
    expect(asked).toBe(0);
    expect(await rows()).toEqual([]);
    node.stop();
  });

  it("keeps a sign-out in memory while the database is away, and saves it once it is back", async () => {
    let away = true;
    const node = new SharedRevocations(
      async () => {
        if (away) throw new Error("connect ECONNREFUSED");
        return pool;
      },
      async () => "retry",
      options,
      seal,
    );
    await node.add("tok-kept");
    expect(await rows()).toEqual([]);
    await node.pass();
    away = false;
    await node.pass();
    expect((await rows()).map((r) => r.token)).toEqual(["tok-kept"]);
    node.stop();
    await pool.query("DELETE FROM web_pending_signouts");
  });

  it("keeps no token as it is: its hash and the token sealed, which another secret cannot open", async () => {
    const token = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
    const node = new SharedRevocations(
      async () => pool,
      async () => "retry",
      options,
      seal,
    );
    await node.add(token);
    const stored = await pool.query("SELECT * FROM web_pending_signouts");
    expect(JSON.stringify(stored.rows)).not.toContain(token);
    expect(stored.rows[0].token_hash).toBe(seal.id(token));
    expect(tokenSeal(["another-secret-of-at-least-32-bytes!!"]).open(stored.rows[0].sealed)).toBe(
      null,
    );
    // A rotated secret list (a new one first) still opens what the old one sealed.
    expect(
      tokenSeal([
        "newer-secret-of-at-least-32-bytes!!!",
        "web-cluster-test-secret-0123456789abcdef",
      ]).open(stored.rows[0].sealed),
    ).toBe(token);
    node.stop();
    await pool.query("DELETE FROM web_pending_signouts");
  });

  it("moves the earlier release's table of open tokens into the sealed one and empties it", async () => {
    await pool.query(
      "CREATE TABLE web_pending_revocations (token text PRIMARY KEY, since timestamptz NOT NULL, attempts integer NOT NULL DEFAULT 0, next_at timestamptz NOT NULL)",
    );
    await pool.query(
      "INSERT INTO web_pending_revocations VALUES ('tok-from-before', now(), 2, now())",
    );
    await ensureWebTables(pool, seal);
    expect(await rows()).toEqual([{ token: "tok-from-before", attempts: 2, due: true }]);
    const old = await pool.query("SELECT COUNT(*)::int AS n FROM web_pending_revocations");
    expect(old.rows[0].n).toBe(0);
    await pool.query("DROP TABLE web_pending_revocations");
    await pool.query("DELETE FROM web_pending_signouts");
  });

  it("creates nothing: without the upstream's migrations the web stops, saying to run them", async () => {
    const bare = new pg.Pool({ connectionString: await postgres.createDatabase("web_unmigrated") });
    try {
      await expect(ensureWebTables(bare, seal)).rejects.toThrow(
        /web_pending_signouts is missing: run `npm run migrate`/,
      );
    } finally {
      await bare.end();
    }
  });
});
