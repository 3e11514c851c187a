/**
 * The worker thread behind the synchronous PostgreSQL store (pg.ts): it holds the connections
 * (node-postgres clients, one per open store, keyed by a handle) and runs what the main thread
 * asks, while the main thread waits on the answer (synckit). A store's statements therefore run in
 * the order they are called, one at a time, on one connection, as better-sqlite3's do.
 *
 * Integers: BIGINT (int8) and NUMERIC (what SUM of a BIGINT answers) are read as JavaScript numbers,
 * as SQLite's integers are: every stored amount is an integer of micro-USD within
 * Number.MAX_SAFE_INTEGER (MAX_MONEY_USD, contract/fields.ts), checked on the way in.
 */
import pg from "pg";
import { runAsWorker } from "synckit";

pg.types.setTypeParser(20, (v) => Number(v)); // int8
pg.types.setTypeParser(1700, (v) => Number(v)); // numeric

/** @type {Map<number, pg.Client>} */
const clients = new Map();
/**
 * The connection each open transaction began on, by handle. A statement of that transaction runs
 * only on that connection: when it broke, the server has rolled the transaction back, and every
 * later statement of it fails (BROKEN_IN_TRANSACTION) until the store ends it, instead of running
 * on a new connection outside any transaction, without the write lock or the leader's fence.
 * @type {Map<number, pg.Client>}
 */
const transactions = new Map();
/** SQLSTATE connection_failure: what a statement of a transaction whose connection broke answers. */
const BROKEN_IN_TRANSACTION = "08006";

async function clientOf(handle, url) {
  let c = clients.get(handle);
  if (c) return c;
  c = new pg.Client({ connectionString: url, application_name: "tradepost-upstream" });
  // A connection that breaks (the server restarted) is dropped; the next call opens a new one.
  c.on("error", () => clients.delete(handle));
  c.on("end", () => clients.delete(handle));
  await c.connect();
  clients.set(handle, c);
  return c;
}

function failure(err) {
  const e = /** @type {any} */ (err);
  return {
    error: { message: String(e?.message ?? e), code: e?.code ?? null, detail: e?.detail ?? null },
  };
}

/** The open transaction's connection of `handle` when it still works; else a failure to answer. */
function transactionClient(handle) {
  const c = transactions.get(handle);
  if (c && clients.get(handle) === c) return { client: c };
  return {
    failure: {
      error: {
        message: "The connection to PostgreSQL broke inside a transaction; it was rolled back",
        code: BROKEN_IN_TRANSACTION,
        detail: null,
      },
    },
  };
}

/**
 * Ops: "begin" opens a transaction (its SQL begins it), "commit" and "rollback" end it, "exec" and
 * "query" run inside the open one if any, "close" ends the connection. `pre`, when given, is run
 * first on the same connection (the savepoint statements that waited for this op). An op of a transaction
 * whose connection broke fails, except "rollback", which has nothing left to undo.
 */
runAsWorker(async (handle, url, op, sql, params, name, pre) => {
  try {
    if (op === "close") {
      const c = clients.get(handle);
      clients.delete(handle);
      transactions.delete(handle);
      if (c) await c.end();
      return { ok: true };
    }
    let c;
    if (transactions.has(handle)) {
      const t = transactionClient(handle);
      if (op === "commit" || op === "rollback") transactions.delete(handle);
      if (t.failure) return op === "rollback" ? { ok: true } : t.failure;
      c = t.client;
    } else {
      c = await clientOf(handle, url);
    }
    // Savepoint statements that waited for this one (pg.ts), in one simple query before it.
    if (pre) await c.query(pre);
    if (op === "begin") {
      transactions.set(handle, c);
      await c.query(sql);
      return { ok: true };
    }
    if (op === "exec" || op === "commit" || op === "rollback") {
      await c.query(sql);
      return { ok: true };
    }
    // A named statement is parsed once per connection and reused.
    const r = await c.query(
      name ? { name, text: sql, values: params } : { text: sql, values: params },
    );
    return { rows: r.rows, rowCount: r.rowCount ?? 0 };
  } catch (err) {
    return failure(err);
  }
});
