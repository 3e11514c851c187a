/**
 * The upstream's architecture rules (.dependency-cruiser.cjs, docs/architecture.md): no import
 * circle; modules and platform never import the composition root; no module imports another's
 * routes; the engine and the money services import no HTTP; the platform imports modules only as
 * types. Each rule is also shown to catch its own breach, in a small tree that breaks each once
 * (tests/architecture-fixture). Beside them, the rule that only store files hold SQL, and the
 * engine's and the money code's short functions (TigerBeetle's style: at most 70 lines each).
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT, isStoreFile, sourceFiles } from "../support/source-files.js";

const DEPCRUISE = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const CONFIG = path.join(ROOT, ".dependency-cruiser.cjs");

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
  cycle?: { name: string }[];
}

/** The violations dependency-cruiser reports for `dirs`, cruised from `cwd`. */
function violations(cwd: string, dirs: string[]): Violation[] {
  let out: string;
  try {
    out = execFileSync(
      process.execPath,
      [DEPCRUISE, ...dirs, "--config", CONFIG, "--output-type", "json"],
      { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 },
    );
  } catch (err) {
    // A violation makes the tool exit non-zero; its report is still on stdout.
    out = (err as { stdout?: string }).stdout ?? "";
    if (!out) throw err;
  }
  return (JSON.parse(out) as { summary: { violations: Violation[] } }).summary.violations;
}

const describeViolation = (v: Violation) =>
  `${v.rule.name}: ${v.from} -> ${v.cycle ? v.cycle.map((c) => c.name).join(" -> ") : v.to}`;

describe("upstream architecture", () => {
  it("the upstream and the contract break none of the rules", () => {
    expect(violations(ROOT, ["upstream", "contract"]).map(describeViolation)).toEqual([]);
  }, 60_000);

  it("each rule catches its own breach", () => {
    const found = violations(path.join(ROOT, "tests/architecture-fixture"), ["upstream"]);
    expect([...new Set(found.map((v) => v.rule.name))].sort()).toEqual([
      "engine-and-money-without-http",
      "no-circular",
      "no-composition-root",
      "no-other-modules-routes",
      "platform-without-modules",
    ]);
  }, 60_000);
});

/** SQL in a source text: a statement's keywords in a string, or a call that runs SQL. */
export function sqlIn(src: string): string[] {
  const code = src.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const hits = [
    ...code.matchAll(
      /\.(prepare|pragma)\(|\bdb\.exec\(|\b(SELECT\s[\s\S]{0,200}?\sFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX))\b/g,
    ),
  ];
  return hits.map((m) => m[0].replace(/\s+/g, " ").slice(0, 40));
}

describe("SQL only in store files", () => {
  it("finds SQL where it is written", () => {
    expect(sqlIn('const r = db.prepare("SELECT id FROM users WHERE id = ?").get(1);')).toHaveLength(
      2,
    );
    expect(sqlIn("run(`UPDATE charges SET status = 2`)")).toEqual(["UPDATE charges SET"]);
    expect(sqlIn("/** SELECT the rows FROM memory */ const x = 1;")).toEqual([]);
    expect(sqlIn("const m = /^a+$/.exec(text);")).toEqual([]);
    expect(sqlIn('this.db.exec("DELETE FROM x")')).toHaveLength(2);
    expect(isStoreFile("upstream/modules/money/deposits-store.ts")).toBe(true);
    expect(isStoreFile("upstream/modules/money/deposits.ts")).toBe(false);
  });

  it("no upstream file but a store file holds SQL", () => {
    const outside = sourceFiles("upstream")
      .filter((f) => !isStoreFile(f))
      .flatMap((f) => sqlIn(fs.readFileSync(path.join(ROOT, f), "utf8")).map((s) => `${f}: ${s}`));
    expect(outside).toEqual([]);
  });
});

/** Functions of a source text longer than `max` lines: "name (lines)". */
export function longFunctions(file: string, text: string, max: number): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isFunctionLike(n) && "body" in n && n.body) {
      const first = src.getLineAndCharacterOfPosition(n.getStart()).line;
      const lines = src.getLineAndCharacterOfPosition(n.getEnd()).line - first + 1;
      const name = "name" in n && n.name ? n.name.getText() : `(line ${first + 1})`;
      if (lines > max) out.push(`${name} (${lines})`);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

describe("short functions in the engine and the money code", () => {
  const MAX_LINES = 70;

  it("finds a function longer than the bound", () => {
    const body = Array.from({ length: 80 }, (_, i) => `  const v${i} = ${i};`).join("\n");
    expect(longFunctions("x.ts", `function big() {\n${body}\n}`, MAX_LINES)).toEqual(["big (82)"]);
    expect(longFunctions("x.ts", "const f = () => 1;", MAX_LINES)).toEqual([]);
  });

  it("no function of the trading and money modules (their routes aside) exceeds 70 lines", () => {
    const files = [
      ...sourceFiles("upstream/modules/trading").filter((f) => !f.endsWith("/routes.ts")),
      ...sourceFiles("upstream/modules/money").filter((f) => !f.includes("/routes")),
    ];
    expect(files).toContain("upstream/modules/trading/engine.ts");
    const long = files.flatMap((f) =>
      longFunctions(f, fs.readFileSync(path.join(ROOT, f), "utf8"), MAX_LINES).map(
        (l) => `${f}: ${l}`,
      ),
    );
    expect(long).toEqual([]);
  });
});
