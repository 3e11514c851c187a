/**
 * Cluster mode's shared PostgreSQL database (DATABASE_URL): the web's own tables, prefixed web_,
 * which the upstream's PostgreSQL migrations make in the upstream's database (migration 032): the
 * web's role (tradepost_web) may read and write them and nothing else, and creates nothing. The web
 * checks at start that they exist (server.ts, and the app's modules before their first query), and
 * keeps one small connection pool per web process.
 *
 * Tables:
 * - web_pending_signouts: sign-outs the upstream has not confirmed yet (app/utils/
 *   revocations-shared.server.ts). Tokens still valid at the upstream are kept only as their
 *   SHA-256 and sealed with a key derived from SESSION_SECRET (token-seal.server.ts); the rows of
 *   the earlier releases' table, web_pending_revocations, which held them as they were, are moved
 *   into it at start and deleted.
 *
 * Relative imports only: server.ts loads this file directly, outside the Remix build.
 */
import pg from "pg";
import type { TokenSeal } from "./token-seal.server";

/** Connections one web process opens at most (its queries are few and short). */
const POOL_MAX = 4;

type Queryable = Pick<pg.ClientBase, "query">;

/** The web's tables are not there: waiting does not help, the upstream's migrations must run. */
export class WebTablesMissing extends Error {}

/** The table the web needs (made by the upstream's PostgreSQL migration 032, `npm run migrate`). */
const WEB_TABLE = "web_pending_signouts";

/**
 * Checks that the web's tables exist (the upstream's migrations make them: the web's role creates
 * nothing), and moves any row of the earlier releases' table of open tokens into them, sealed.
 */
export async function ensureWebTables(db: pg.Pool | pg.Client, seal: TokenSeal): Promise<void> {
  const client: Queryable & { release?: () => void } =
    db instanceof pg.Pool ? await db.connect() : db;
  try {
    const has = await client.query<{ t: string | null }>("SELECT to_regclass($1)::text AS t", [
      WEB_TABLE,
    ]);
    if (!has.rows[0]?.t)
      throw new WebTablesMissing(
        `the table ${WEB_TABLE} is missing: run \`npm run migrate\` with the upstream's DATABASE_URL (the web's tables are made by the upstream's migrations)`,
      );
    await moveOpenTokens(client, seal);
  } finally {
    client.release?.();
  }
}

/**
 * The table of earlier releases kept tokens as they were: its rows move to web_pending_signouts,
 * sealed, and are deleted (migration 032 grants the web that much; the empty table is left).
 */
async function moveOpenTokens(client: Queryable, seal: TokenSeal): Promise<void> {
  const old = await client.query<{ t: string | null }>(
    "SELECT to_regclass('web_pending_revocations')::text AS t",
  );
  if (!old.rows[0]?.t) return;
  await client.query("BEGIN");
  try {
    const rows = await client.query<{
      token: string;
      since: Date;
      attempts: number;
      next_at: Date;
    }>("SELECT token, since, attempts, next_at FROM web_pending_revocations FOR UPDATE");
    for (const r of rows.rows)
      await client.query(
        `INSERT INTO web_pending_signouts (token_hash, sealed, since, attempts, next_at)
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (token_hash) DO NOTHING`,
        [seal.id(r.token), seal.seal(r.token), r.since, r.attempts, r.next_at],
      );
    await client.query("DELETE FROM web_pending_revocations");
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
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
      if (err instanceof WebTablesMissing || Date.now() > until) throw err;
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
