/**
 * Cluster mode's shared PostgreSQL database (DATABASE_URL): the web's own tables, prefixed web_ so
 * that they may live in the upstream's database, created when missing (server.ts at start, and the
 * app's modules before their first query), and one small connection pool per web process.
 *
 * Tables:
 * - web_pending_signouts: sign-outs the upstream has not confirmed yet (app/utils/
 *   revocations-shared.server.ts). Tokens still valid at the upstream are kept only as their
 *   SHA-256 and sealed with a key derived from SESSION_SECRET (token-seal.server.ts); the table of
 *   earlier releases, web_pending_revocations, which held them as they were, is moved and dropped.
 *
 * Relative imports only: server.ts loads this file directly, outside the Remix build.
 */
import pg from "pg";
import type { TokenSeal } from "./token-seal.server";

/** Connections one web process opens at most (its queries are few and short). */
const POOL_MAX = 4;

/** Key of the advisory lock under which nodes starting together create the tables one at a time. */
const SCHEMA_LOCK_KEY = 0x7765625f; // "web_"

const SCHEMA = [
  // A token is kept as its SHA-256 (the key) and sealed (app/utils/token-seal.server.ts).
  `CREATE TABLE IF NOT EXISTS web_pending_signouts (
     token_hash text PRIMARY KEY,
     sealed text NOT NULL,
     since timestamptz NOT NULL,
     attempts integer NOT NULL DEFAULT 0,
     next_at timestamptz NOT NULL
   )`,
  `CREATE INDEX IF NOT EXISTS web_pending_signouts_next_at ON web_pending_signouts (next_at)`,
];

/**
 * The table of earlier releases kept tokens as they were: its rows move to web_pending_signouts,
 * sealed, and it is dropped.
 */
async function moveOpenTokens(client: Queryable, seal: TokenSeal): Promise<void> {
  const old = await client.query<{ t: string | null }>(
    "SELECT to_regclass('web_pending_revocations')::text AS t",
  );
  if (!old.rows[0]?.t) return;
  const rows = await client.query<{ token: string; since: Date; attempts: number; next_at: Date }>(
    "SELECT token, since, attempts, next_at FROM web_pending_revocations",
  );
  for (const r of rows.rows)
    await client.query(
      `INSERT INTO web_pending_signouts (token_hash, sealed, since, attempts, next_at)
       VALUES ($1, $2, $3, $4, $5) ON CONFLICT (token_hash) DO NOTHING`,
      [seal.id(r.token), seal.seal(r.token), r.since, r.attempts, r.next_at],
    );
  await client.query("DROP TABLE web_pending_revocations");
}

type Queryable = Pick<pg.ClientBase, "query">;

/**
 * Creates the web's tables when missing, in one transaction under an advisory lock (two nodes
 * creating the same table at once would otherwise collide in PostgreSQL's catalog).
 */
export async function ensureWebTables(db: pg.Pool | pg.Client, seal: TokenSeal): Promise<void> {
  const client: Queryable & { release?: () => void } =
    db instanceof pg.Pool ? await db.connect() : db;
  try {
    await client.query("BEGIN");
    try {
      await client.query("SELECT pg_advisory_xact_lock($1)", [SCHEMA_LOCK_KEY]);
      for (const statement of SCHEMA) await client.query(statement);
      await moveOpenTokens(client, seal);
      await client.query("COMMIT");
    } catch (err) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw err;
    }
  } finally {
    client.release?.();
  }
}

/**
 * Checks at start-up that DATABASE_URL can be reached and creates the web's tables; retries for up
 * to `waitMs` (the database may be starting beside the web) and then throws the last failure.
 */
export async function prepareWebDatabase(
  url: string,
  seal: TokenSeal,
  waitMs = 30_000,
): Promise<void> {
  const until = Date.now() + waitMs;
  for (;;) {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
    try {
      await client.connect();
      await ensureWebTables(client, seal);
      return;
    } catch (err) {
      if (Date.now() > until) throw err;
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}

interface WebDb {
  url: string;
  pool: pg.Pool;
  /** Resolves once the tables exist (made again after a failure). */
  ready: Promise<void> | null;
}

const GLOBAL_KEY = "__tradepostWebDb";

/** The process's pool to `url` (made on first use; survives dev rebuilds). */
function webDbFor(url: string): WebDb {
  const g = globalThis as unknown as Record<string, WebDb | undefined>;
  let db = g[GLOBAL_KEY];
  if (!db || db.url !== url) {
    const pool = new pg.Pool({
      connectionString: url,
      max: POOL_MAX,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
    });
    // An idle connection the server ended (a restart) is dropped from the pool, not thrown.
    pool.on("error", (err) =>
      console.warn(
        JSON.stringify({ svc: "web", msg: "database connection lost", err: err.message }),
      ),
    );
    db = { url, pool, ready: null };
    g[GLOBAL_KEY] = db;
  }
  return db;
}

/** The pool to `url`, once the web's tables exist. */
export async function webDb(url: string, seal: TokenSeal): Promise<pg.Pool> {
  const db = webDbFor(url);
  db.ready ??= ensureWebTables(db.pool, seal).catch((err) => {
    db.ready = null;
    throw err;
  });
  await db.ready;
  return db.pool;
}

/** Ends the process's pool (tests). */
export async function closeWebDb(): Promise<void> {
  const g = globalThis as unknown as Record<string, WebDb | undefined>;
  const db = g[GLOBAL_KEY];
  g[GLOBAL_KEY] = undefined;
  await db?.pool.end();
}
