/**
 * The statements of the store files, found two ways, and a way to run each once:
 * - the call sites: every line of a store file that calls `.prepare(`, `db.exec(` or
 *   `prepareOnce(` (a scan of the source text);
 * - the statements: what those calls prepare when the store files' functions run on a recording
 *   store (RecordingStore), which answers every statement with an empty or a one-row stub and keeps
 *   each SQL text with the call site that prepared it (read from the call's stack);
 * - runOnce: one statement prepared and run on a real store, inside a transaction rolled back,
 *   its failure sorted into an error of the statement (it does not parse, names a table, column or
 *   function that does not exist, mixes types) or an error of the data (a NOT NULL, foreign key,
 *   unique or check violation, which a statement run with dummy values may meet).
 * tests/unit/store-statements.test.ts compares the call sites with the walk and runs every
 * statement on the store under test.
 */
import fs from "node:fs";
import path from "node:path";
import type {
  AnyFn,
  DB,
  Dialect,
  RunResult,
  Statement,
  TransactionFn,
} from "../../upstream/platform/db.js";
import { toPostgres } from "../../upstream/platform/store/sql-dialect.js";
import { ROOT, isStoreFile, sourceFiles } from "./source-files.js";

export { ROOT };

/**
 * Store files whose `.prepare(` serves other store files: prepareOnce (multi-row.ts) prepares what
 * its caller passes, so each call of prepareOnce is a call site, and a statement it prepares is
 * counted where prepareOnce was called.
 */
export const HELPER_FILES = ["upstream/platform/store/multi-row.ts"];

/** Every store file of the upstream, relative to the repository, sorted. */
export function storeFiles(): string[] {
  return sourceFiles("upstream").filter(isStoreFile).sort();
}

/** A line of a store file that prepares or runs SQL. */
export interface CallSite {
  /** "file:line". */
  site: string;
  file: string;
  line: number;
  /** The line's text, trimmed (what a list of exceptions names it by). */
  code: string;
}

/** A call that prepares or runs SQL (the definition of prepareOnce aside). */
const CALL = /\.prepare\(|\bdb\.exec\(|(?<!function )\bprepareOnce\(/;

/**
 * The call sites of one source text: one per line that calls `.prepare(`, `db.exec(` or
 * `prepareOnce(` outside a comment (two calls on one line are one site).
 */
export function callSitesIn(file: string, src: string): CallSite[] {
  const blank = (m: string) => m.replace(/[^\n]/g, " ");
  const code = src.replace(/\/\*[\s\S]*?\*\//g, blank).replace(/^\s*\/\/.*$/gm, blank);
  const text = src.split("\n");
  return code
    .split("\n")
    .flatMap((l, i) =>
      CALL.test(l) ? [{ site: `${file}:${i + 1}`, file, line: i + 1, code: text[i].trim() }] : [],
    );
}

/** The call sites of every store file but the helpers. */
export function storeCallSites(): CallSite[] {
  return storeFiles()
    .filter((f) => !HELPER_FILES.includes(f))
    .flatMap((f) => callSitesIn(f, fs.readFileSync(path.join(ROOT, f), "utf8")));
}

/** One SQL text a store file prepared (or ran through `exec`) during a walk. */
export interface Recorded {
  kind: "prepare" | "exec";
  sql: string;
  /** The "file:line" of the store file's call, or null when no store file called. */
  site: string | null;
  dialect: Dialect;
}

/** The "file:line" of the innermost frame of `stack` in a store file that is not a helper. */
export function storeFrame(stack: string): string | null {
  for (const line of stack.split("\n").slice(1)) {
    const m = /\(?(?:file:\/\/)?(\/[^()]+?):(\d+):\d+\)?$/.exec(line.trim());
    if (!m) continue;
    if (isStoreSource(m[1])) return `${path.relative(ROOT, m[1])}:${m[2]}`;
  }
  return null;
}

/**
 * A value that passes for every argument a store function takes: a number (1) or a string ("1")
 * where one is read, an object whose every property is such a value, an array of two of them
 * (multi-row statements are then written for two rows), a function that answers one. Values bound
 * to a statement do not matter to the recording store; this one only lets a store function reach
 * its statements. Where a function's SQL depends on its arguments (a table's name, an optional
 * filter), the test names the arguments itself.
 */
export function anything(): any {
  const items: unknown[] = [];
  const self: any = new Proxy(() => undefined, {
    get(_t, key) {
      if (key === Symbol.toPrimitive) return (hint: string) => (hint === "string" ? "1" : 1);
      if (key === Symbol.iterator) return () => items[Symbol.iterator]();
      if (typeof key === "symbol" || key === "then") return undefined;
      if (key === "length") return items.length;
      if (/^\d+$/.test(key)) return items[Number(key)];
      if (key in Array.prototype) {
        const v = (items as any)[key];
        return typeof v === "function" ? v.bind(items) : v;
      }
      return self;
    },
    apply: () => self,
    ownKeys: () => [],
  });
  items.push(self, self);
  return self;
}

/** Calls of one store function that a walk makes at most (a loop until a row is missing). */
const CALL_BUDGET = 200;

/**
 * A store of the given dialect that prepares nothing: it records each SQL text with its call site
 * and answers every statement with no row (`rows: "none"`) or one row of `anything()` (`"one"`),
 * so that a walk in both modes reaches the statements behind either answer.
 */
export class RecordingStore implements DB {
  readonly recorded: Recorded[] = [];
  readonly inTransaction = false;
  readonly open = true;
  private calls = 0;

  constructor(
    readonly dialect: Dialect,
    private readonly rows: "none" | "one",
  ) {}

  /** Starts a new call of a store function (a fresh budget). */
  startCall(): void {
    this.calls = 0;
  }

  prepare(sql: string): Statement {
    this.note("prepare", sql);
    const one = this.rows === "one";
    return {
      run: (): RunResult => ({ changes: one ? 1 : 0, lastInsertRowid: one ? 1 : 0 }),
      get: () => (one ? anything() : undefined),
      all: () => (one ? [anything()] : []),
    };
  }

  exec(sql: string): void {
    this.note("exec", sql);
  }

  transaction<F extends AnyFn>(fn: F): TransactionFn<F> {
    const run = (...args: unknown[]) => fn(...args);
    return Object.assign(run, {
      default: run,
      deferred: run,
      immediate: run,
      exclusive: run,
    }) as unknown as TransactionFn<F>;
  }

  close(): void {}

  private note(kind: Recorded["kind"], sql: string): void {
    if (++this.calls > CALL_BUDGET) throw new Error("the walk's budget of calls is spent");
    this.recorded.push({ kind, sql, site: callerSite(), dialect: this.dialect });
  }
}

/** The store file's line of each position of the running code already looked up (see callerSite). */
const siteOfPosition = new Map<string, string | null>();

/**
 * The call site of the store file that called the recording store: the innermost frame of the stack
 * in a store file that is not a helper, as "file:line" of the TypeScript source. Vitest maps the
 * text of a stack back to the source lines, which is slow for the few thousand calls of a walk: the
 * position of that frame in the running (transformed) code is read first, without the mapping,
 * and each position is mapped once.
 */
function callerSite(): string | null {
  const keep = { limit: Error.stackTraceLimit, prepare: Error.prepareStackTrace };
  Error.stackTraceLimit = 12;
  Error.prepareStackTrace = (_e, frames) => frames;
  const holder: { stack?: unknown } = {};
  Error.captureStackTrace(holder, callerSite);
  const frames = holder.stack as NodeJS.CallSite[];
  Error.prepareStackTrace = keep.prepare;
  const at = frames.findIndex((f) => isStoreSource(f.getFileName() ?? ""));
  let site: string | null | undefined = null;
  if (at >= 0) {
    const f = frames[at];
    const position = `${f.getFileName()}:${f.getLineNumber()}:${f.getColumnNumber()}`;
    site = siteOfPosition.get(position);
    if (site === undefined) {
      // The stack down to that frame only (this function's own frame is one more on top).
      Error.stackTraceLimit = at + 2;
      siteOfPosition.set(position, (site = storeFrame(new Error().stack ?? "")));
    }
  }
  Error.stackTraceLimit = keep.limit;
  return site;
}

/** A path of a store file that is not a helper (absolute, or a file:// URL). */
function isStoreSource(file: string): boolean {
  const rel = path.relative(ROOT, file.replace(/^file:\/\//, ""));
  return rel.startsWith("upstream/") && isStoreFile(rel) && !HELPER_FILES.includes(rel);
}

/** A store module as imported: its file and its exports. */
export interface StoreModule {
  file: string;
  exports: Record<string, unknown>;
}

/** Calls of a store function that replace the generic one (arguments its SQL depends on). */
export interface NamedCalls {
  file: string;
  name: string;
  calls: (db: DB) => Array<() => unknown>;
}

/** `call` on `db` with a fresh budget; a throw ends it (a stub answer the function did not expect). */
function attempt(db: RecordingStore, call: () => unknown): unknown {
  db.startCall();
  try {
    return call();
  } catch {
    return undefined;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && Object.getPrototypeOf(v) === Object.prototype;

/**
 * Calls every exported function of `modules` on `db`: with the calls of `named` where it names the
 * function, else once with `anything()` arguments; `skip` ("file#name") are left out. A function
 * that answers an object of functions (ledgerStore) hands out its statements through them: each is
 * called too.
 */
export function walk(
  db: RecordingStore,
  modules: StoreModule[],
  named: NamedCalls[],
  skip: ReadonlySet<string>,
): void {
  for (const m of modules)
    for (const [name, value] of Object.entries(m.exports)) {
      if (typeof value !== "function" || skip.has(`${m.file}#${name}`)) continue;
      const own = named.find((n) => n.file === m.file && n.name === name);
      const calls = own
        ? own.calls(db)
        : [() => (value as AnyFn)(db, anything(), anything(), anything(), anything())];
      for (const call of calls) {
        const result = attempt(db, call);
        if (!isPlainObject(result)) continue;
        for (const f of Object.values(result))
          if (typeof f === "function")
            attempt(db, () => (f as AnyFn)(anything(), anything(), anything()));
      }
    }
}

/** What running a statement once gave. */
export type Outcome =
  | { kind: "ran" }
  /** It ran and the data refused it (a constraint): the statement itself is sound. */
  | { kind: "data"; error: string }
  /** The statement itself failed (parse, names, types), or its parameters could not be bound. */
  | { kind: "statement"; error: string };

/**
 * Errors of the data rather than of the statement: SQLite's constraint and type-mismatch codes;
 * PostgreSQL's SQLSTATE classes 21 (cardinality), 22 (data exception), 23 (integrity constraint),
 * 40 (transaction rollback) and P0001 (an exception a trigger raises). Anything else, PostgreSQL's
 * class 42 (syntax error or access rule violation: undefined table, column or function, type
 * mismatch, ambiguous name …) and SQLite's SQLITE_ERROR above all, is the statement's.
 */
const DATA_ERROR =
  /^(SQLITE_CONSTRAINT\w*|SQLITE_MISMATCH|SQLITE_TOOBIG|2[123]\w{3}|40\w{3}|P0001)$/;

/** Sorts a failure of a statement (see DATA_ERROR). */
export function classify(err: unknown): Outcome {
  const e = err as { code?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "";
  const error = `${code ? `${code} ` : ""}${String(e?.message ?? err)}`;
  return DATA_ERROR.test(code) ? { kind: "data", error } : { kind: "statement", error };
}

/**
 * The arguments that bind every parameter of `sql` (`?`, `@name`, `:name`, as sql-dialect.ts reads
 * them) to `fill`, but a LIMIT to 1 and an OFFSET to 0 (SQLite refuses a NULL or a text there).
 */
export function dummyArguments(sql: string, fill: null | "1"): unknown[] {
  const { text, slots } = toPostgres(sql, new Set());
  const values = slots.map((): unknown => fill);
  for (const m of text.matchAll(/\b(LIMIT|OFFSET)\s+\$(\d+)/gi))
    values[Number(m[2]) - 1] = m[1].toUpperCase() === "LIMIT" ? 1 : 0;
  const positional = slots.flatMap((s, i) => (typeof s === "number" ? [values[i]] : []));
  const names = Object.fromEntries(
    slots.flatMap((s, i) => (typeof s === "string" ? [[s, values[i]]] : [])),
  );
  return Object.keys(names).length > 0 ? [...positional, names] : positional;
}

/** Prepares `sql` and runs it once with dummyArguments: all() where it answers rows, else run(). */
function execute(db: DB, sql: string, fill: null | "1"): void {
  const st = db.prepare(sql);
  const args = dummyArguments(sql, fill);
  // better-sqlite3 refuses all() on a statement that answers no rows; PostgreSQL's store takes it.
  if (db.dialect === "sqlite" && !(st as unknown as { reader: boolean }).reader) st.run(...args);
  else st.all(...args);
}

/** Thrown to end the transaction of runRolledBack: the store rolls back what the statement wrote. */
const ROLLBACK = new Error("rolled back on purpose");

/** One run of a statement in a write transaction rolled back (see runOnce). */
function runRolledBack(
  db: DB,
  s: { kind: Recorded["kind"]; sql: string },
  fill: null | "1",
): Outcome {
  let outcome: Outcome = { kind: "ran" };
  try {
    db.transaction(() => {
      try {
        if (s.kind === "exec") db.exec(s.sql);
        else execute(db, s.sql, fill);
      } catch (err) {
        outcome = classify(err);
      }
      throw ROLLBACK;
    })();
  } catch (err) {
    if (err !== ROLLBACK) throw err;
  }
  return outcome;
}

/**
 * Prepares and runs one statement (or runs an `exec` text) on `db` in a write transaction that is
 * rolled back, so the store is left as it was; what it gave (see Outcome). Every parameter is NULL
 * first; where the data refuses that (an INSERT's NOT NULL column), the statement runs once more
 * with every parameter the text "1", which both stores read as a number, a text or a flag, so that
 * most writes get past NOT NULL to their other constraints, and many are written (then rolled
 * back). The second run's outcome is answered then.
 */
export function runOnce(db: DB, s: { kind: Recorded["kind"]; sql: string }): Outcome {
  const first = runRolledBack(db, s, null);
  if (first.kind !== "data" || s.kind === "exec") return first;
  return runRolledBack(db, s, "1");
}
