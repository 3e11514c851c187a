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
import { inlined, literalsOf } from "./pg-literal.mjs";
import { unnested } from "./pg-unnest.mjs";
import { watchPosted } from "./pg-channel-watch.mjs";

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
 * Each table's column types by name, per connection, as the catalog has them (pg-unnest.mjs types
 * an INSERT's arrays with them). Read at a table's first multi-row write, and again when a column
 * is missing (a migration added it since).
 * @type {WeakMap<pg.Client, Map<string, Map<string, string>>>}
 */
const columnTypesOf = new WeakMap();

/** @param {pg.Client} c */
function columnTypes(c) {
  let tables = columnTypesOf.get(c);
  if (!tables) columnTypesOf.set(c, (tables = new Map()));
  const known = tables;
  /** @param {string} table @param {boolean} again */
  return async (table, again) => {
    const held = known.get(table);
    if (held && !again) return held;
    const r = await c.query({
      text: `SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type
             FROM pg_attribute a WHERE a.attrelid = to_regclass($1) AND a.attnum > 0
             AND NOT a.attisdropped`,
      values: [table],
    });
    if (r.rows.length === 0) return null;
    const types = new Map(r.rows.map((row) => [String(row.name), String(row.type)]));
    known.set(table, types);
    return types;
  };
}

/**
 * `pre` with each multi-row write that can go as arrays rewritten so (pg-unnest.mjs). A rewritten
 * statement's text no longer depends on its row count, so it is prepared like any other (its
 * name: none, which preparedNames reads as "prepare it").
 * @param {pg.Client} c
 * @param {import("./pg-coalesce.js").PreStatement[]} pre
 */
async function unnestedPre(c, pre) {
  const types = columnTypes(c);
  const out = [];
  for (const st of pre) {
    const u = await unnested(st[0], st[1], types);
    out.push(u ? [u.sql, u.values, null, st[3]] : st);
  }
  return out;
}

/** A statement's answer as a waiting statement's result: its row count and its first row. */
function preResult(r) {
  return { rowCount: r.rowCount ?? 0, row: r.rows?.[0] ?? null };
}

/**
 * Runs the statements that waited (pg.ts `pre`), in order: runs of them whose values can be
 * written as literals go in one simple query (one round trip), the others with their parameters.
 * `lead` (a BEGIN with its lock and fence), when given, goes first in the same round trip. A
 * statement's expected row count (pg.ts `expectChanges`) is checked on its answer: a statement
 * that changed another number of rows fails with the message given. `pre` comes as unnestedPre
 * made it.
 */
async function runPre(c, pre, lead = null) {
  const results = [];
  let texts = lead ? [lead] : [];
  let leading = lead !== null;
  const sendTexts = async () => {
    if (texts.length === 0) return;
    const r = await c.query(texts.join(";\n"));
    const rs = Array.isArray(r) ? r : [r];
    const own = leading ? texts.length - 1 : texts.length;
    if (rs.length < own) throw new Error(`${own} statements answered ${rs.length} times`);
    for (const one of rs.slice(rs.length - own)) results.push(preResult(one));
    texts = [];
    leading = false;
  };
  for (const [sql, values, name] of pre) {
    const text = inlined((v) => c.escapeLiteral(v), sql, values);
    if (text !== null) {
      texts.push(text.replace(/[\s;]+$/, ""));
      continue;
    }
    await sendTexts();
    results.push(
      preResult(await c.query(name ? { name, text: sql, values } : { text: sql, values })),
    );
  }
  await sendTexts();
  pre.forEach(([, , , expect], i) => {
    if (expect && results[i].rowCount !== expect[0]) throw new Error(expect[1]);
  });
  return results;
}

/**
 * Each store's calls run one after the other, in the order they came (a batch written
 * asynchronously first, then the calls made while it was written).
 * @type {Map<number, Promise<unknown>>}
 */
const chains = new Map();
/**
 * The failure of a store's last batch, until the store has read it ("batchError"): a call made
 * before that was decided on what the failed batch held, so it fails too.
 */
const batchFailures = new Map();

function enqueue(handle, fn) {
  // Whatever comes after this call is written after it: no later batch joins a waiting group.
  waitingGroups.delete(handle);
  const p = (chains.get(handle) ?? Promise.resolve()).then(fn);
  chains.set(
    handle,
    p.catch(() => undefined),
  );
  return p;
}

/**
 * Per store, the results of the parts of the batch under way written so far (writePart), in order:
 * read by the store when it reads the result of a write it sent in a part ("partResults").
 * @type {Map<number, { rowCount: number, row: Record<string, unknown> | null }[]>}
 */
const partResults = new Map();

/**
 * The connection a batch (or a part of one) is written on: the store's, when it brings its BEGIN;
 * else the one its transaction began on, while that still works.
 */
async function batchClient(handle, url, begin) {
  return begin === null ? transactionClient(handle) : { client: await clientOf(handle, url) };
}

/** A batch's statements as sent on `c` (unnestedPre), `c` noted as its transaction's connection. */
async function openedOn(handle, c, pre0) {
  const pre = await unnestedPre(c, pre0);
  transactions.set(handle, c);
  return pre;
}

/**
 * A part of a batch's transaction sent before the batch ended (pg.ts streamPart): its BEGIN (lock
 * and fence) for the first part, or null for a later one, and its statements in order, savepoints
 * included; the transaction stays open for the parts after it and the batch's end. Any failure rolls
 * the transaction back: the parts after it and the batch's end are then refused (startBatch).
 */
async function writePart(handle, url, begin, pre0) {
  let c;
  try {
    const t = await batchClient(handle, url, begin);
    if (t.failure) return t.failure;
    c = t.client;
    const results = await runPre(c, await openedOn(handle, c, pre0), begin);
    const before = partResults.get(handle) ?? [];
    for (const r of results) before.push(r);
    partResults.set(handle, before);
    return { ok: true };
  } catch (err) {
    if (c) await c.query("ROLLBACK").catch(() => undefined);
    transactions.delete(handle);
    partResults.delete(handle);
    return failure(err);
  }
}

/**
 * A batch's transaction (pg.ts commitLater): its BEGIN (lock and fence), or none when the batch
 * began on the connection already (a read inside it sent its BEGIN: the rest of it is written on
 * that transaction's connection), and its statements, the expected row counts checked, then
 * COMMIT; any failure rolls it back.
 */
async function writeBatch(handle, url, begin, pre0) {
  let c;
  try {
    const t = await batchClient(handle, url, begin);
    if (t.failure) return t.failure;
    c = t.client;
    const pre = await openedOn(handle, c, pre0);
    const quote = (v) => c.escapeLiteral(v);
    // PREPARE runs outside a transaction: one that fails inside would abort it.
    const names = await preparedNames(c, pre, begin !== null);
    const texts = pre.map(([sql, values, , expect], i) => {
      const executed = executeOf(quote, names[i], values, expect);
      if (executed !== null) return executed;
      const text = inlined(quote, sql, values);
      return text === null || !expect ? text : expectingRows(quote, text, expect);
    });
    if (texts.every((t) => t !== null)) {
      // One round trip: the server stops at the first failure, and the COMMIT then never runs.
      const statements = texts.map((t) => t.replace(/[\s;]+$/, ""));
      await c.query([...(begin === null ? [] : [begin]), ...statements, "COMMIT"].join(";\n"));
    } else {
      await runPre(c, pre, begin);
      await c.query("COMMIT");
    }
    return { ok: true };
  } catch (err) {
    if (c) await c.query("ROLLBACK").catch(() => undefined);
    return failure(err);
  } finally {
    transactions.delete(handle);
    partResults.delete(handle);
  }
}

/**
 * Prepared statements of a batch's writes, per connection: the statement as prepared (a write with
 * parameters, or such a write checking its own row count) -> its name, or false when PostgreSQL
 * could not prepare it (a parameter whose type only a literal's context tells): that statement
 * keeps going with its values written in as literals. A batch then sends `EXECUTE name(values)`
 * for each write: the server parses, rewrites and plans each statement once per connection
 * instead of once per row (what took most of its time per order when every write was a literal
 * statement).
 * @type {WeakMap<pg.Client, Map<string, string | false>>}
 */
const preparedOf = new WeakMap();
let preparedCount = 0;

/** The statement a write is prepared as: itself, or wrapped to check its row count ($n+1, $n+2). */
function preparedText(sql, values, expect) {
  const n = values.length;
  return expect ? checkingRows(sql, `$${n + 1}::bigint`, `$${n + 2}::text`) : sql;
}

/**
 * The name of each write's prepared statement on `c` (null for a write without parameters, or
 * one PostgreSQL could not prepare), preparing those met there for the first time, each in a query
 * of its own and outside the batch's transaction: one that cannot be prepared is noted, and the
 * batch is never failed by it. Inside a transaction (`prepareNew` false) only those prepared
 * before are named.
 * @returns {Promise<(string | null)[]>}
 */
async function preparedNames(c, pre, prepareNew) {
  let known = preparedOf.get(c);
  if (!known) preparedOf.set(c, (known = new Map()));
  const names = [];
  for (const [sql, values, name, expect] of pre) {
    // A merged write (pg.ts WRITTEN_ONCE, the empty name) is written with literals, never prepared.
    if (!values || values.length === 0 || name === "") {
      names.push(null);
      continue;
    }
    const text = preparedText(sql, values, expect);
    if (!known.has(text) && prepareNew) {
      const name = `tp_batch_${++preparedCount}`;
      try {
        await c.query(`PREPARE ${name} AS ${text}`);
        known.set(text, name);
      } catch {
        known.set(text, false);
      }
    }
    names.push(known.get(text) || null);
  }
  return names;
}

/** `EXECUTE` of a write's prepared statement `name` with its values as literals, or null. */
function executeOf(quote, name, values, expect) {
  if (!name) return null;
  const args = literalsOf(quote, values);
  if (args === null) return null;
  if (expect) args.push(String(Number(expect[0])), quote(expect[1]));
  return `EXECUTE ${name}(${args.join(", ")})`;
}

/**
 * A write made to check its own row count on the server (tp_expect_rows, migration 029): it
 * raises `expect[1]` unless it changed `expect[0]` rows.
 */
function expectingRows(quote, text, [rows, message]) {
  return checkingRows(text, String(Number(rows)), quote(message));
}

/** `sql` wrapped to raise `message` unless it changed `rows` rows (both SQL expressions). */
function checkingRows(sql, rows, message) {
  const body = sql.replace(/[\s;]+$/, "");
  const returning = /\bRETURNING\b/i.test(body) ? "" : " RETURNING 1";
  return `WITH written AS (${body}${returning}) SELECT tp_expect_rows((SELECT count(*) FROM written), ${rows}, ${message})`;
}

/** Slots of a batch channel's control words (pg.ts BatchChannel). */
const BATCH_POSTED = 0;
const BATCH_DONE = 1;
const BATCH_FAILED = 2;
const BATCH_TAKEN = 3;
const BATCH_BYTES = 4;
const BATCH_SLOTS = 4;

/**
 * Each store's batch channel (pg.ts BatchChannel), once attached: its control words, its data,
 * and the number of the last batch taken.
 * @type {Map<number, { ctrl: Int32Array, bytes: Uint8Array, taken: number, closed: boolean }>}
 */
const channels = new Map();
const decoder = new TextDecoder();

/**
 * Per store, the whole batches that wait for their turn as one group (startBatch), until the group
 * starts being written or something else is queued after it.
 * @type {Map<number, { begin: string, batches: { seq: number, pre: unknown[] }[] }>}
 */
const waitingGroups = new Map();

/**
 * Starts writing batch `seq` of a store (after everything asked before it); reports on `ctrl`.
 * A batch after one that failed (and whose failure the store has not read yet) is not written.
 *
 * Group commit across batches: whole batches (their own BEGIN, final) that arrive while the
 * store's connection is busy wait as one group, and the group is written as ONE transaction (the
 * first BEGIN, every batch's statements in order, one COMMIT) when its turn comes. The sequencer
 * decides a batch while the one before it is written; without the group, a command arriving then
 * waited for the batch being written, the one already waiting, and its own. The group is
 * all-or-nothing as each batch was: its failure is reported for its first batch (so every batch of
 * it, and every one after it, reads as failed) and it is done with its last. Only batches with the
 * same BEGIN (the same lock and fence) join one group.
 */
function startBatch(handle, url, ctrl, seq, begin, pre, final) {
  const waiting = waitingGroups.get(handle);
  if (final && begin !== null && waiting && waiting.begin === begin) {
    waiting.batches.push({ seq, pre });
    return;
  }
  const group = { begin, batches: [{ seq, pre }] };
  void enqueue(handle, async () => {
    if (waitingGroups.get(handle) === group) waitingGroups.delete(handle);
    const first = group.batches[0].seq;
    const last = group.batches[group.batches.length - 1].seq;
    let a;
    try {
      const statements = group.batches.length === 1 ? pre : group.batches.flatMap((b) => b.pre);
      a = batchFailures.has(handle)
        ? failure(new Error("a batch written before this one failed; nothing of it was written"))
        : final
          ? await writeBatch(handle, url, begin, statements)
          : await writePart(handle, url, begin, statements);
    } catch (err) {
      // Whatever fails here fails the batch: it is reported on the channel, never left unanswered
      // (a throw escaping would end the worker, and the store would wait for its batch until
      // CALL_TIMEOUT_MS).
      a = failure(err);
    }
    if (a.error) {
      if (!batchFailures.has(handle)) batchFailures.set(handle, a);
      Atomics.compareExchange(ctrl, BATCH_FAILED, 0, first);
    }
    Atomics.store(ctrl, BATCH_DONE, last);
    Atomics.notify(ctrl, BATCH_DONE);
  });
  // Set after enqueue (which ends any waiting group): later whole batches may join this one.
  if (final && begin !== null) waitingGroups.set(handle, group);
}

/** Takes the batches posted on a store's channel since the last taken, in order: before any later call of it. */
function takePosted(handle, url) {
  const ch = channels.get(handle);
  if (!ch) return;
  const posted = Atomics.load(ch.ctrl, BATCH_POSTED);
  while (ch.taken < posted) {
    const seq = ++ch.taken;
    const slot = seq % BATCH_SLOTS;
    const length = Atomics.load(ch.ctrl, BATCH_BYTES + slot);
    const start = slot * (ch.bytes.length / BATCH_SLOTS);
    // Copied out of the shared memory before decoding (TextDecoder does not read shared views).
    const [begin, pre, final] = JSON.parse(decoder.decode(ch.bytes.slice(start, start + length)));
    startBatch(handle, url, ch.ctrl, seq, begin, pre, final !== false);
  }
  // The slots up to the last taken may be written again.
  Atomics.store(ch.ctrl, BATCH_TAKEN, ch.taken);
}

/**
 * Ops: "begin" opens a transaction (its SQL begins it), "commit" and "rollback" end it, "exec" and
 * "query" run inside the open one if any, "close" ends the connection. `pre`, when given, is run
 * first on the same connection (the statements that waited for this op). An op of a transaction
 * whose connection broke fails, except "rollback", which has nothing left to undo.
 * "attach" gives the store's batch channel (pg.ts BatchChannel: `params` its control words and
 * data). "batch" starts writing a whole transaction (`sql` its BEGIN, `pre` its statements; for one
 * the channel cannot carry; `params[2]` false: a part of one, see writePart) and answers at once;
 * its outcome is reported on the channel, and a failure's details are read with "batchError".
 * "partResults" answers the results of the parts of the batch under way written so far.
 */
runAsWorker(async (handle, url, op, sql, params, name, pre) => {
  // A batch posted before this call is written before it.
  takePosted(handle, url);
  if (op === "attach") {
    const ch = {
      ctrl: new Int32Array(params[0]),
      bytes: new Uint8Array(params[1]),
      taken: 0,
      closed: false,
    };
    channels.set(handle, ch);
    watchPosted(
      ch.ctrl,
      BATCH_POSTED,
      () => ch.closed,
      () => takePosted(handle, url),
    );
    return { ok: true };
  }
  if (op === "batch") {
    const ctrl = new Int32Array(params[0]);
    // Not on the channel (too large for a slot): the channel's next batch comes after it.
    const ch = channels.get(handle);
    if (ch) {
      ch.taken = params[1];
      Atomics.store(ch.ctrl, BATCH_TAKEN, ch.taken);
    }
    startBatch(handle, url, ctrl, params[1], sql, pre, params[2] !== false);
    return { ok: true };
  }
  if (op === "partResults") {
    // After the parts handed over before it.
    return enqueue(handle, () =>
      batchFailures.has(handle)
        ? failure(new Error("a part of the batch under way failed"))
        : { ok: true, pre: partResults.get(handle) ?? [] },
    );
  }
  if (op === "batchError") {
    // After every batch handed over before it: a batch that follows a failed one is refused, not
    // written, until the store has read the failure.
    return enqueue(handle, () => {
      const a = batchFailures.get(handle) ?? { ok: true };
      batchFailures.delete(handle);
      const ch = channels.get(handle);
      if (ch) Atomics.store(ch.ctrl, BATCH_FAILED, 0);
      return a;
    });
  }
  if (op === "close") {
    const ch = channels.get(handle);
    if (ch) {
      ch.closed = true;
      channels.delete(handle);
      // Wakes its watch, which then stops.
      Atomics.store(ch.ctrl, BATCH_POSTED, -1);
      Atomics.notify(ch.ctrl, BATCH_POSTED);
    }
  }
  return enqueue(handle, () => {
    if (batchFailures.has(handle) && op !== "rollback" && op !== "close")
      return failure(new Error("The batch written before this call failed; nothing of it ran"));
    return runOp(handle, url, op, sql, params, name, pre);
  });
});

async function runOp(handle, url, op, sql, params, name, pre) {
  try {
    if (op === "close") {
      const c = clients.get(handle);
      clients.delete(handle);
      transactions.delete(handle);
      partResults.delete(handle);
      if (c) await c.end();
      return { ok: true };
    }
    let c;
    if (transactions.has(handle)) {
      const t = transactionClient(handle);
      if (op === "commit" || op === "rollback") {
        transactions.delete(handle);
        partResults.delete(handle);
      }
      if (t.failure) return op === "rollback" ? { ok: true } : t.failure;
      c = t.client;
    } else {
      c = await clientOf(handle, url);
    }
    // Statements that waited for this one (pg.ts: savepoints, waiting writes), before it. When
    // one fails, nothing after it runs, and a COMMIT becomes a ROLLBACK.
    let preResults;
    if (pre && op !== "rollback") {
      try {
        preResults = await runPre(c, await unnestedPre(c, pre));
      } catch (err) {
        if (op === "commit") await c.query("ROLLBACK").catch(() => undefined);
        return failure(err);
      }
    }
    try {
      if (op === "begin") {
        transactions.set(handle, c);
        await c.query(sql);
        return { ok: true, pre: preResults };
      }
      if (op === "exec" || op === "commit" || op === "rollback") {
        await c.query(sql);
        return { ok: true, pre: preResults };
      }
      // A named statement is parsed once per connection and reused.
      const u = await unnested(sql, params, columnTypes(c));
      const text = u?.sql ?? sql;
      const values = u?.values ?? params;
      const r = await c.query(name ? { name, text, values } : { text, values });
      return { rows: r.rows, rowCount: r.rowCount ?? 0, pre: preResults };
    } catch (err) {
      return { ...failure(err), pre: preResults };
    }
  } catch (err) {
    return failure(err);
  }
}
