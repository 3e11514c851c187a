/**
 * Every statement of every store file, prepared and run once on the store under test: SQLite in
 * the project "unit", PostgreSQL in "unit-postgres", where this file is what proves that each
 * statement, as store/sql-dialect.ts translates it, parses, names tables, columns and functions
 * that exist, types its parameters, and runs (the fast lane runs only some other tests there).
 *
 * Finding the statements (tests/support/store-walk.ts): every exported function of every store
 * file is called on a recording store, which keeps each SQL text prepared and the line of the
 * store file that prepared it. The walk runs four times: for each dialect (a dialect's own branch,
 * such as candles-store's PostgreSQL insert, is recorded there and run only on that store), with
 * every statement answering no row and then one row (statements behind either answer). A store
 * function whose SQL depends on its arguments (a table's name, an optional filter) is called with
 * the arguments the product passes (NAMED_CALLS). Completeness is checked, not assumed: a scan of
 * the store files' text lists every line that calls `.prepare(`, `db.exec(` or `prepareOnce(`, and
 * each must have been reached (or be named in NOT_WALKED with its reason). SQLite's `.pragma(`
 * calls (db.ts) are connection settings every SQLite store runs when opened, not statements here.
 *
 * Running them: each distinct SQL text once, in a write transaction rolled back (the store is left
 * as it was), every parameter bound to NULL (a LIMIT to 1, an OFFSET to 0), and where the data
 * refuses NULL once more with every parameter "1" (store-walk.ts runOnce). A refusal by the data
 * (NOT NULL, foreign key, unique, check) still proves the statement parsed, was analysed and ran;
 * a failure of the statement itself (PostgreSQL's SQLSTATE class 42, SQLite's SQLITE_ERROR, …)
 * fails its store file's test. On PostgreSQL a run is three round trips (begin with the write
 * lock, the statement, rollback): about a second for all of them.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "../../upstream/platform/db.js";
import * as dbFile from "../../upstream/platform/db.js";
import * as auditStore from "../../upstream/modules/operators/audit-store.js";
import * as catalogStore from "../../upstream/modules/operators/catalog-store.js";
import * as consoleStore from "../../upstream/modules/operators/console-store.js";
import * as contentStore from "../../upstream/modules/content/store.js";
import * as depositsStore from "../../upstream/modules/money/deposits-store.js";
import * as identityStore from "../../upstream/modules/identity/store.js";
import * as idempotencyStore from "../../upstream/platform/idempotency-store.js";
import * as tradingStore from "../../upstream/modules/trading/store.js";
import * as catalogs from "../../upstream/modules/operators/catalog.js";
import * as content from "../../upstream/modules/content/service.js";
import {
  ROOT,
  RecordingStore,
  callSitesIn,
  runOnce,
  storeCallSites,
  storeFiles,
  storeFrame,
  walk,
  type NamedCalls,
  type Recorded,
  type StoreModule,
} from "../support/store-walk.js";
import { openTestStore, testDialect } from "../support/test-store.js";

/** The store drivers: walked only through DRIVER_CALLS (their other exports open stores). */
const isDriver = (f: string) =>
  f === "upstream/platform/db.ts" || f.startsWith("upstream/platform/store/");

/** A table with its fields, as the money catalogues (catalog.ts) and content kinds describe theirs. */
interface TableFields {
  table: string;
  fields: readonly { name: string; column?: string; fixed?: boolean }[];
}
const isTableFields = (v: unknown): v is TableFields =>
  typeof v === "object" &&
  v !== null &&
  typeof (v as TableFields).table === "string" &&
  Array.isArray((v as TableFields).fields);

/** Every money catalogue and every content kind the product exports (each its table and fields). */
const CATALOGUES = (Object.values(catalogs) as unknown[]).filter(isTableFields);
const CONTENT_KINDS = (Object.values(content) as unknown[]).filter(isTableFields) as Array<
  TableFields & { table: contentStore.ContentTable }
>;

/** The columns of fields: a field's column, or its name. */
const columnsOf = (fields: TableFields["fields"]) => fields.map((f) => f.column ?? f.name);
const rowOf = (columns: string[]) => Object.fromEntries(columns.map((c) => [c, 1]));

/**
 * Store functions whose SQL text depends on their arguments, called as the product calls them:
 * every catalogue and content kind (their tables and columns, catalog.ts and content/service.ts),
 * each branch of an optional filter.
 */
/**
 * `db` as it is inside a sequencer batch on PostgreSQL (writesWait, ids taken ahead): the branch of
 * a store function that writes without waiting for an answer.
 */
function waiting(db: DB): DB {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === "writesWait") return true;
      if (prop === "nextIds")
        return (_table: string, n: number) => Array.from({ length: n }, (_, i) => i + 1);
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === "function" ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

const ORDER: tradingStore.NewOrder = {
  userId: 1,
  instrumentId: 1,
  side: 1,
  status: 1,
  pendingKind: null,
  lots: "1",
  units: "100000",
  leverage: 100,
  originPrice: 1.1,
  openPrice: 1.1,
  takeProfit: null,
  stopLoss: null,
  marginMicro: 1,
  feeMicro: 1,
  createdAt: 1,
  openedAt: 1,
  trailDistance: null,
  trailActivation: null,
  breakEven: null,
  expiresAt: null,
};
const CLOSE: tradingStore.OrderClose = {
  id: 1,
  closePrice: 1.1,
  profitMicro: 1,
  reason: "manual",
  closedAt: 1,
};

const NAMED_CALLS: NamedCalls[] = [
  {
    // Both branches: answering the new ids, and (writes waiting) ids taken ahead.
    file: "upstream/modules/trading/store.ts",
    name: "insertOrders",
    calls: (db) => [db, waiting(db)].map((d) => () => tradingStore.insertOrders(d, [ORDER])),
  },
  {
    // Both branches: answering which orders were open, and (writes waiting) guarded on each.
    file: "upstream/modules/trading/store.ts",
    name: "closeOrders",
    calls: (db) => [db, waiting(db)].map((d) => () => tradingStore.closeOrders(d, [CLOSE])),
  },
  {
    // A page of the stub's rows (one or none) ends the load; the walk's stub arguments would not.
    file: "upstream/platform/idempotency-store.ts",
    name: "loadKeyIndex",
    calls: (db) => [() => idempotencyStore.loadKeyIndex(db).catch(() => undefined)],
  },
  {
    file: "upstream/modules/operators/catalog-store.ts",
    name: "catalogRowById",
    calls: (db) =>
      CATALOGUES.map((c) => () => catalogStore.catalogRowById(db, { table: c.table, id: 1 })),
  },
  {
    file: "upstream/modules/operators/catalog-store.ts",
    name: "catalogRows",
    calls: (db) => CATALOGUES.map((c) => () => catalogStore.catalogRows(db, { table: c.table })),
  },
  {
    file: "upstream/modules/operators/catalog-store.ts",
    name: "insertCatalogRow",
    // An added entry has every column (catalog.ts merged()).
    calls: (db) =>
      CATALOGUES.map(
        (c) => () =>
          catalogStore.insertCatalogRow(db, { table: c.table, row: rowOf(columnsOf(c.fields)) }),
      ),
  },
  {
    file: "upstream/modules/operators/catalog-store.ts",
    name: "updateCatalogRow",
    // An update writes every column but the fixed ones (catalog.ts updateCatalog()).
    calls: (db) =>
      CATALOGUES.map((c) => () => {
        const columns = columnsOf(c.fields.filter((f) => !f.fixed));
        catalogStore.updateCatalogRow(db, { table: c.table, id: 1, columns, row: rowOf(columns) });
      }),
  },
  {
    file: "upstream/modules/content/store.ts",
    name: "insertEntry",
    calls: (db) =>
      CONTENT_KINDS.map(
        (k) => () =>
          contentStore.insertEntry(db, { table: k.table, row: rowOf(columnsOf(k.fields)), now: 1 }),
      ),
  },
  {
    file: "upstream/modules/content/store.ts",
    name: "entryById",
    calls: (db) =>
      CONTENT_KINDS.map((k) => () => contentStore.entryById(db, { table: k.table, id: 1 })),
  },
  {
    file: "upstream/modules/content/store.ts",
    name: "updateEntryColumns",
    // Every column at once: any subset an update sets is written the same way.
    calls: (db) =>
      CONTENT_KINDS.map(
        (k) => () =>
          contentStore.updateEntryColumns(db, {
            table: k.table,
            id: 1,
            set: rowOf(columnsOf(k.fields)),
            now: 1,
          }),
      ),
  },
  {
    file: "upstream/modules/content/store.ts",
    name: "publishedNewsRows",
    calls: (db) =>
      [null, 1].map(
        (categoryId) => () =>
          contentStore.publishedNewsRows(db, { lang: "en", categoryId, limit: 1, offset: 0 }),
      ),
  },
  {
    file: "upstream/modules/content/store.ts",
    name: "publishedNewsCount",
    calls: (db) =>
      [null, 1].map(
        (categoryId) => () => contentStore.publishedNewsCount(db, { lang: "en", categoryId }),
      ),
  },
  {
    file: "upstream/modules/operators/console-store.ts",
    name: "queueIds",
    calls: (db) =>
      (["charges", "draws"] as const).map(
        (queue) => () => consoleStore.queueIds(db, { queue, status: 1, limit: 1, offset: 0 }),
      ),
  },
  {
    file: "upstream/modules/operators/audit-store.ts",
    name: "auditRows",
    calls: (db) =>
      [undefined, "op"].map(
        (actor) => () => auditStore.auditRows(db, { limit: 1, offset: 0, actor }),
      ),
  },
  {
    file: "upstream/modules/identity/store.ts",
    name: "userByMobile",
    calls: (db) => [null, 1].map((areaId) => () => identityStore.userByMobile(db, "1", areaId)),
  },
  {
    file: "upstream/modules/identity/store.ts",
    name: "revokeTokensExcept",
    calls: (db) =>
      [null, "token"].map((keep) => () => identityStore.revokeTokensExcept(db, 1, keep)),
  },
  {
    file: "upstream/modules/money/deposits-store.ts",
    name: "enabledWireAccounts",
    calls: (db) =>
      [{}, { bankCoin: "USD" }].map((p) => () => depositsStore.enabledWireAccounts(db, p)),
  },
];

/** The drivers' statements: the migrations' bookkeeping and the health check. */
const DRIVER_CALLS: Array<(db: DB) => unknown> = [
  (db) => dbFile.migrate(db),
  (db) => dbFile.storeAnswers(db),
];

/** Exports not called, "file#name", with the reason. */
const SKIPPED: Record<string, string> = {
  // The limiter's SQL is rate-limiter-flexible's own, run through its own pool on PostgreSQL;
  // this file's one statement (the purge) is reached through purgeExpiredLimits.
  "upstream/platform/limits-store.ts#storedRateLimiter":
    "builds rate-limiter-flexible's limiter, whose statements are the library's",
};

/**
 * Call sites reached by the walk whose statements are not run here, by file and a text of their
 * line, with the reason.
 */
const NOT_RUN: Array<{ file: string; code: string; why: string }> = [
  {
    file: "upstream/platform/db.ts",
    code: "db.exec(sql);",
    why: "the migration files: openTestStore's store is made by running them, and a second run would meet the tables they made",
  },
];

/** Call sites the walk cannot reach, by file and a text of their line, with the reason. */
const NOT_WALKED: Array<{ file: string; code: string; why: string }> = [];

const dialect = testDialect();
const files = storeFiles();
const modules: StoreModule[] = await Promise.all(
  files
    .filter((f) => !isDriver(f))
    .map(async (file) => ({
      file,
      exports: (await import(path.join(ROOT, file))) as Record<string, unknown>,
    })),
);

const recorded: Recorded[] = [];
for (const d of ["sqlite", "postgres"] as const)
  for (const rows of ["none", "one"] as const) {
    const rec = new RecordingStore(d, rows);
    walk(rec, modules, NAMED_CALLS, new Set(Object.keys(SKIPPED)));
    for (const call of DRIVER_CALLS) {
      rec.startCall();
      try {
        call(rec);
      } catch {
        // A stub answer the function did not expect: what it prepared before is recorded.
      }
    }
    recorded.push(...rec.recorded);
  }

const sites = storeCallSites();
const siteOf = new Map(sites.map((s) => [s.site, s]));
const matches = (e: { file: string; code: string }) =>
  sites.filter((s) => s.file === e.file && s.code.includes(e.code));
const notRun = new Set(NOT_RUN.flatMap(matches).map((s) => s.site));

/**
 * The statements to run on this store: each distinct text of this dialect's walks once, with the
 * call sites that prepared it, under the file of the first.
 */
const statements = new Map<string, { kind: Recorded["kind"]; sql: string; sites: Set<string> }>();
for (const r of recorded) {
  if (r.dialect !== dialect || r.site === null || notRun.has(r.site)) continue;
  const key = `${r.kind}\u0000${r.sql}`;
  const s = statements.get(key) ?? { kind: r.kind, sql: r.sql, sites: new Set<string>() };
  s.sites.add(r.site);
  statements.set(key, s);
}
const byFile = new Map<
  string,
  Array<{ kind: Recorded["kind"]; sql: string; sites: Set<string> }>
>();
for (const s of statements.values()) {
  const file = [...s.sites][0].replace(/:\d+$/, "");
  byFile.set(file, [...(byFile.get(file) ?? []), s]);
}

let db: DB;
beforeAll(() => {
  db = openTestStore();
});
afterAll(() => db?.close());

describe("the walk of the store files", () => {
  it("reaches every line that prepares or runs SQL", () => {
    const reached = new Set(recorded.map((r) => r.site));
    const unreached = sites
      .filter((s) => !reached.has(s.site) && !NOT_WALKED.some((e) => matches(e).includes(s)))
      .map((s) => `${s.site}  ${s.code}`);
    expect(unreached, "call sites no store function reached: name them in NAMED_CALLS").toEqual([]);
  });

  it("attributes every statement to a call site the scan found", () => {
    const strays = recorded
      .filter((r) => r.site === null || !siteOf.has(r.site))
      .map((r) => `${r.site ?? "(no store file)"}: ${r.sql.slice(0, 80)}`);
    expect(strays).toEqual([]);
  });

  it("keeps its lists of exceptions current", () => {
    const reached = new Set(recorded.map((r) => r.site));
    const exported = new Set(
      modules.flatMap((m) => Object.keys(m.exports).map((n) => `${m.file}#${n}`)),
    );
    // The product's catalogues and content kinds were found (NAMED_CALLS writes their SQL).
    expect(CATALOGUES.map((c) => c.table)).toContain("draw_currencies");
    expect(CONTENT_KINDS.map((k) => k.table)).toContain("news");
    const stale = [
      ...NAMED_CALLS.map((n) => `${n.file}#${n.name}`).filter((n) => !exported.has(n)),
      ...Object.keys(SKIPPED).filter((n) => !exported.has(n)),
      // A NOT_RUN entry names call sites the walk reaches; a NOT_WALKED entry, ones it does not.
      ...NOT_RUN.filter((e) => !matches(e).some((s) => reached.has(s.site))).map(
        (e) => `NOT_RUN ${e.file}: ${e.code}`,
      ),
      ...NOT_WALKED.filter((e) => !matches(e).some((s) => !reached.has(s.site))).map(
        (e) => `NOT_WALKED ${e.file}: ${e.code}`,
      ),
    ];
    expect(stale).toEqual([]);
  });

  it("finds call sites where they are written, and the store file that called", () => {
    const src = [
      "/** db.prepare( in a comment */",
      "const a = db.prepare('SELECT 1');",
      "// db.exec('x')",
      "  db.exec(sql);",
      "export function prepareOnce(db: DB, sql: string) {",
      "  prepareOnce(db, `SELECT ${x}`)",
    ].join("\n");
    expect(callSitesIn("f.ts", src).map((s) => s.line)).toEqual([2, 4, 6]);
    const stack = [
      "Error",
      `    at RecordingStore.note (${ROOT}/tests/support/store-walk.ts:10:5)`,
      `    at prepareOnce (${ROOT}/upstream/platform/store/multi-row.ts:46:27)`,
      `    at readBalances (${ROOT}/upstream/modules/trading/store.ts:178:18)`,
    ].join("\n");
    expect(storeFrame(stack)).toBe("upstream/modules/trading/store.ts:178");
  });
});

describe(`every store statement runs on ${dialect}`, () => {
  it("tells a statement's error from the data's", () => {
    expect(runOnce(db, { kind: "prepare", sql: "SELECT nope FROM users" }).kind).toBe("statement");
    expect(runOnce(db, { kind: "prepare", sql: "SELECT id FROM nowhere" }).kind).toBe("statement");
    expect(runOnce(db, { kind: "prepare", sql: "SELEC id FROM users" }).kind).toBe("statement");
    // PostgreSQL types every parameter and operand: a comparison of a number with a text is the
    // statement's error there (SQLite compares them).
    if (dialect === "postgres")
      expect(
        runOnce(db, { kind: "prepare", sql: "SELECT id FROM users WHERE id = CAST(? AS TEXT)" }),
      ).toMatchObject({ kind: "statement", error: expect.stringMatching(/^42883 /) });
    // A NOT NULL column (users.uid), a foreign key (ledger.user_id), a CHECK (ledger.kind): the
    // data's.
    const write = (sql: string) => runOnce(db, { kind: "prepare", sql }).kind;
    expect(write("INSERT INTO users (uid) VALUES (NULL)")).toBe("data");
    const ledger =
      "INSERT INTO ledger (user_id, amount_micro, balance_after_micro, kind, created_at)";
    expect(write(`${ledger} VALUES (-1, 0, 0, 'deposit', 0)`)).toBe("data");
    expect(write(`${ledger} VALUES (?, ?, ?, 'no such kind', ?)`)).toBe("data");
    // Parameters bound: a LIMIT to 1, the others to NULL (or "1" where NULL is refused).
    expect(write("SELECT id FROM users WHERE uid = @uid LIMIT @limit OFFSET ?")).toBe("ran");
    expect(write("UPDATE users SET email = ? WHERE id = ?")).toBe("ran");
  });

  for (const file of files.filter((f) => byFile.has(f)))
    it(`${file}: every statement prepares and runs`, () => {
      const failed = byFile.get(file)!.flatMap((s) => {
        const o = runOnce(db, s);
        return o.kind === "statement"
          ? [
              `${[...s.sites].join(", ")}: ${o.error}\n    ${s.sql.replace(/\s+/g, " ").slice(0, 300)}`,
            ]
          : [];
      });
      expect(failed).toEqual([]);
    });
});
