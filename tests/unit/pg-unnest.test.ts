/**
 * Multi-row writes sent to PostgreSQL as one array per column (store/pg-unnest.mjs): which
 * statements are rewritten and into what, each value as the array element its parameter would have
 * been; and, on PostgreSQL, that the rows written so are the rows the statement held, in their
 * order, whether the write goes at once, waits in a batch written later, or waits in a batch that
 * a read made go at once.
 */
import { afterEach, describe, expect, it } from "vitest";
import { columnArrays, unnestShapeOf, unnested } from "../../upstream/platform/store/pg-unnest.mjs";
import type { DB } from "../../upstream/platform/db.js";
import { chunked, prepareOnce, tuples } from "../../upstream/platform/store/multi-row.js";
import { Sequencer } from "../../upstream/platform/store/sequencer.js";
import { closeConnectionPairs, testDialect, twoConnections } from "../support/test-store.js";

const PROBE_TYPES = new Map([
  ["id", "bigint"],
  ["n", "bigint"],
  ["x", "double precision"],
  ["s", "text"],
  ["b", "boolean"],
]);

/** The catalog of a store with the probe table, counting how often it was asked. */
function catalog(types: Map<string, string> | null = PROBE_TYPES) {
  const asked: Array<[string, boolean]> = [];
  return {
    asked,
    columnTypes: async (table: string, again: boolean) => {
      asked.push([table, again]);
      return table === "probe" ? types : null;
    },
  };
}

describe("which multi-row writes go as arrays", () => {
  it("an INSERT of many rows, typed by the table's columns or the tuple's casts", async () => {
    const { columnTypes } = catalog();
    const u = await unnested(
      "INSERT INTO probe (n, x, s) VALUES ($1, $2, CAST($3 AS TEXT)), ($4, $5, CAST($6 AS TEXT)) RETURNING id",
      [1, 0.5, "a", 2, -1.25, "b"],
      columnTypes,
    );
    expect(u).toEqual({
      sql: "INSERT INTO probe (n, x, s) SELECT * FROM unnest($1::bigint[], $2::double precision[], $3::text[]) RETURNING id",
      values: ["{1,2}", "{0.5,-1.25}", '{"a","b"}'],
    });
  });

  it("an UPDATE … FROM (VALUES …) AS v, its columns named as VALUES names them or as given", async () => {
    const { columnTypes, asked } = catalog();
    const u = await unnested(
      `UPDATE orders SET stop_loss = v.column2
       FROM (VALUES (CAST($1 AS BIGINT), CAST($2 AS DOUBLE PRECISION)), (CAST($3 AS BIGINT), CAST($4 AS DOUBLE PRECISION))) AS v
       WHERE orders.id = v.column1 AND orders.status = 1`,
      [7, 1.1, 8, 1.2],
      columnTypes,
    );
    // The key's condition is put first on its own as well (`= ANY` of the key's array), so that
    // PostgreSQL reads the rows named through the key's index (see keyedTail).
    expect(u?.sql).toBe(`UPDATE orders SET stop_loss = v.column2
       FROM unnest($1::bigint[], $2::double precision[]) AS v(column1, column2)
       WHERE orders.id = ANY($1::bigint[]) AND orders.id = v.column1 AND orders.status = 1`);
    expect(u?.values).toEqual(["{7,8}", "{1.1,1.2}"]);
    // Columns as given; the key may be any of the rows' columns; a WHERE that does not start with
    // the key's condition keeps its text.
    const head = (set: string) => `UPDATE users SET balance_micro = ${set} FROM`;
    const rows = "(VALUES ($1::bigint, $2::bigint), ($3::bigint, $4::bigint))";
    const arrays = "unnest($1::bigint[], $2::bigint[])";
    for (const [alias, where, rewritten] of [
      [
        "v(id, amount)",
        "WHERE users.id = v.id",
        "WHERE users.id = ANY($1::bigint[]) AND users.id = v.id",
      ],
      [
        "v(amount, id)",
        "WHERE users.id = v.id RETURNING id",
        "WHERE users.id = ANY($2::bigint[]) AND users.id = v.id RETURNING id",
      ],
      [
        "v(amount, id)",
        "WHERE users.area_id = 1 AND users.id = v.id",
        "WHERE users.area_id = 1 AND users.id = v.id",
      ],
    ]) {
      const set = alias.startsWith("v(id") ? "users.balance_micro + v.amount" : "v.amount";
      const u = await unnested(
        `${head(set)} ${rows} AS ${alias} ${where}`,
        [1, 5, 2, 6],
        columnTypes,
      );
      expect(u?.sql).toBe(`${head(set)} ${arrays} AS ${alias} ${rewritten}`);
    }
    // An UPDATE's types are its casts: the catalog is never asked.
    expect(asked).toEqual([]);
  });

  it("writes each value as the element its parameter would have been: quoted text stays text", async () => {
    const { columnTypes } = catalog();
    const s = unnestShapeOf("INSERT INTO probe (s, n, b) VALUES ($1, $2, $3), ($4, $5, $6)")!;
    expect(
      columnArrays(s, ['say "hi"', null, true, "back\\slash, {x}", 9007199254740991n, false]),
    ).toEqual(['{"say \\"hi\\"","back\\\\slash, {x}"}', "{NULL,9007199254740991}", "{true,false}"]);
    // The text NULL is a value, not a null.
    const u = await unnested(
      "INSERT INTO probe (s) VALUES ($1), ($2)",
      ["NULL", null],
      columnTypes,
    );
    expect(u?.values).toEqual(['{"NULL",NULL}']);
  });

  it("leaves every other statement as it is", async () => {
    const { columnTypes } = catalog();
    const as = (sql: string, values: unknown[]) => unnested(sql, values, columnTypes);
    // One row.
    expect(await as("INSERT INTO probe (n, s) VALUES ($1, $2)", [1, "a"])).toBeNull();
    // Not the same tuple of its own parameters in order.
    expect(
      await as("INSERT INTO probe (n, s) VALUES ($1, $2), ($4, $3)", [1, "a", "b", 2]),
    ).toBeNull();
    expect(await as("INSERT INTO probe (n, s) VALUES ($1, 'x'), ($2, 'y')", [1, 2])).toBeNull();
    expect(await as("INSERT INTO probe (n, s) VALUES ($1, $2), ($3)", [1, "a", 2])).toBeNull();
    // A parameter after the rows, or casts that differ between rows.
    expect(
      await as("INSERT INTO probe (n) VALUES ($1), ($2) ON CONFLICT (n) DO UPDATE SET s = $3", [
        1,
        2,
        "z",
      ]),
    ).toBeNull();
    expect(await as("INSERT INTO probe (n) VALUES ($1::bigint), ($2)", [1, 2])).toBeNull();
    // An UPDATE value without a cast has no type to read.
    expect(
      await as(
        "UPDATE probe SET s = v.column2 FROM (VALUES ($1, $2), ($3, $4)) AS v WHERE probe.n = v.column1",
        [1, "a", 2, "b"],
      ),
    ).toBeNull();
    // A value without an array element here: it goes with its parameters, as before.
    expect(
      await as("INSERT INTO probe (n, x) VALUES ($1, $2), ($3, $4)", [1, NaN, 2, 1]),
    ).toBeNull();
    expect(
      await as("INSERT INTO probe (s, n) VALUES ($1, $2), ($3, $4)", [Buffer.from("x"), 1, "b", 2]),
    ).toBeNull();
    // Neither a multi-row write nor a table the catalog knows.
    expect(await as("SELECT $1, $2", [1, 2])).toBeNull();
    expect(await as("INSERT INTO nowhere (a) VALUES ($1), ($2)", [1, 2])).toBeNull();
  });

  it("asks the catalog again when a column is missing from the types it holds", async () => {
    const { columnTypes, asked } = catalog(new Map([["n", "bigint"]]));
    expect(
      await unnested(
        "INSERT INTO probe (n, s) VALUES ($1, $2), ($3, $4)",
        [1, "a", 2, "b"],
        columnTypes,
      ),
    ).toBeNull();
    expect(asked).toEqual([
      ["probe", false],
      ["probe", true],
    ]);
  });
});

afterEach(closeConnectionPairs);

const PROBE = `CREATE TABLE probe (
  id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
  n BIGINT NOT NULL, x DOUBLE PRECISION, s TEXT, b BOOLEAN
)`;

interface Probe {
  n: number;
  x: number | null;
  s: string | null;
  b: boolean | null;
}

/** Rows no single-row statement would mistake: quotes, backslashes, braces, commas, the text NULL. */
const probes = (count: number, from = 0): Probe[] =>
  Array.from({ length: count }, (_, i) => ({
    n: from + i,
    x: i % 5 === 0 ? null : (from + i) / 8,
    s: [`it's "${i}"`, "a\\b, {c}", "NULL", "", null, "ünïcode ✓"][i % 6],
    b: i % 3 === 0 ? null : i % 2 === 0,
  }));

function insertProbes(db: DB, rows: readonly Probe[]): void {
  for (const part of chunked(rows))
    prepareOnce(
      db,
      `INSERT INTO probe (n, x, s, b) VALUES ${tuples(part.length, "(?, ?, ?, ?)")}`,
    ).run(part.flatMap((r) => [r.n, r.x, r.s, r.b]));
}

const stored = (db: DB): Probe[] =>
  (db.prepare("SELECT n, x, s, b FROM probe ORDER BY id").all() as Probe[]).map((r) => ({
    n: r.n,
    x: r.x,
    s: r.s,
    b: r.b,
  }));

describe.runIf(testDialect() === "postgres")("rows written as arrays on PostgreSQL", () => {
  it("are the statement's rows, in its order, at once, in a batch written later, and in one a read made go at once", async () => {
    const { db, other } = twoConnections();
    db.exec(PROBE);
    const seq = new Sequencer({ db, onWriteFailure: () => undefined, maxBatchMs: 60_000 });
    const atOnce = probes(7);
    const later = probes(600, 100); // two statements: 500 rows, then 100
    const readMadeSync = probes(9, 1000);
    insertProbes(db, atOnce);
    await seq.run(() => insertProbes(db, later));
    const count = await seq.run(() => {
      insertProbes(db, readMadeSync);
      return (db.prepare("SELECT COUNT(*) AS n FROM probe").get() as { n: number }).n;
    });
    expect(count).toBe(616);
    expect(stored(other)).toEqual([...atOnce, ...later, ...readMadeSync]);
    // The UPDATE … FROM (VALUES …) form: each row's own value.
    await seq.run(() =>
      prepareOnce(
        db,
        `UPDATE probe SET s = v.column2 FROM (VALUES ${tuples(3, "(CAST(? AS BIGINT), CAST(? AS TEXT))")}) AS v WHERE probe.n = v.column1`,
      ).run([0, "x'0", 1, "y\\1", 2, null]),
    );
    expect(
      stored(other)
        .slice(0, 3)
        .map((r) => r.s),
    ).toEqual(["x'0", "y\\1", null]);
  });

  it("an UPDATE of 500 rows of a table of 20,000 reads only the rows it names, not the whole table", async () => {
    const { db, other } = twoConnections();
    db.exec(PROBE);
    db.exec("CREATE INDEX probe_n ON probe (n)");
    insertProbes(db, probes(20_000));
    db.exec("ANALYZE probe");
    const part = Array.from({ length: 500 }, (_, i) => ({ n: 2 * i + 1, s: `moved ${i}` }));
    const sql = `UPDATE probe SET s = v.column2 FROM (VALUES ${tuples(part.length, "(CAST(? AS BIGINT), CAST(? AS TEXT))")}) AS v WHERE probe.n = v.column1`;
    const values = part.flatMap((r) => [r.n, r.s]);
    // The statement as the worker sends it (pg-worker.mjs: unnestedPre), planned by the server.
    let k = 0;
    const u = await unnested(
      sql.replace(/\?/g, () => `$${++k}`),
      values,
      async () => null,
    );
    expect(u).not.toBeNull();
    const plan = (
      other
        .prepare(`EXPLAIN ${u!.sql.replace(/\$(\d+)/g, (_, k) => `'${u!.values[Number(k) - 1]}'`)}`)
        .all() as {
        "QUERY PLAN": string;
      }[]
    )
      .map((r) => r["QUERY PLAN"])
      .join("\n");
    // The table is read through the key's index, or by a scan that keeps only the keys named:
    // never whole, into a hash of all its rows.
    const byIndex = /Index (Only )?Scan using probe_n|Bitmap Index Scan on probe_n/.test(plan);
    const filtered = /Seq Scan on probe[^\n]*\n\s*Filter: \(n = ANY /.test(plan);
    expect(byIndex || filtered, plan).toBe(true);
    // And it moves exactly the rows it names.
    await new Sequencer({ db, onWriteFailure: () => undefined }).run(() =>
      prepareOnce(db, sql).run(values),
    );
    const moved = stored(other).filter((r) => r.s?.startsWith("moved "));
    expect(moved.map((r) => r.n)).toEqual(part.map((r) => r.n));
  });
});
