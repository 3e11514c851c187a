/**
 * Boundaries of the upstream's modules, read from their import lines: the order engine and the
 * services below the routes know nothing of HTTP (fastify, the envelope) or the websocket hub.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(__dirname, "../../upstream");

function importsOf(file: string): string[] {
  const src = fs.readFileSync(path.join(ROOT, file), "utf8");
  return [...src.matchAll(/^\s*(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]);
}

const HTTP_OR_WS = /(^fastify|^@fastify\/|^ws$|platform\/http\/|platform\/ws\/|\/app\.js$)/;

describe("upstream boundaries", () => {
  const domainFiles = [
    ...fs
      .readdirSync(path.join(ROOT, "modules/trading"))
      .filter((f) => !["routes.ts", "pushes.ts"].includes(f))
      .map((f) => `modules/trading/${f}`),
    // The money module's files, not its routes (routes.ts and routes/).
    ...fs
      .readdirSync(path.join(ROOT, "modules/money"))
      .filter((f) => f.endsWith(".ts") && f !== "routes.ts")
      .map((f) => `modules/money/${f}`),
  ];

  it("the engine, its parts and the money service import no HTTP, fastify or websocket code", () => {
    expect(domainFiles).toContain("modules/trading/engine.ts");
    const offending = domainFiles.flatMap((f) =>
      importsOf(f)
        .filter((i) => HTTP_OR_WS.test(i))
        .map((i) => `${f} -> ${i}`),
    );
    expect(offending).toEqual([]);
  });

  it("the trading module's SQL lives in its store files", () => {
    // routes.ts and parse.ts read requests (their own rules); the rest reaches the store through
    // store.ts (or a <thing>-store.ts) only.
    const SQL = /\.prepare\(|\.exec\(|\b(SELECT|INSERT INTO|UPDATE|DELETE FROM)\s+[a-z_*]/;
    const outside = fs
      .readdirSync(path.join(ROOT, "modules/trading"))
      .filter((f) => f.endsWith(".ts") && !/(^|-)store\.ts$/.test(f))
      .filter((f) => !["routes.ts", "parse.ts"].includes(f))
      .filter((f) => SQL.test(fs.readFileSync(path.join(ROOT, "modules/trading", f), "utf8")));
    expect(outside).toEqual([]);
  });

  it("only the money service writes ledger rows", () => {
    const files = (dir: string): string[] =>
      fs
        .readdirSync(path.join(ROOT, dir), { withFileTypes: true })
        .flatMap((d) =>
          d.isDirectory()
            ? files(`${dir}/${d.name}`)
            : d.name.endsWith(".ts")
              ? [`${dir}/${d.name}`]
              : [],
        );
    // Exactly one file holds the SQL that writes ledger rows and moves balances...
    const writers = files("modules")
      .concat(files("platform"))
      .filter((f) =>
        /INSERT INTO ledger|UPDATE users SET balance_micro/.test(
          fs.readFileSync(path.join(ROOT, f), "utf8"),
        ),
      );
    expect(writers).toEqual(["modules/money/ledger-store.ts"]);
    // ...and only the money service (service.ts, ledger.ts for its reads) imports it.
    const everyFile = files("modules")
      .concat(files("platform"))
      .concat(fs.readdirSync(ROOT).filter((f) => f.endsWith(".ts")));
    const importers = everyFile.filter((f) =>
      importsOf(f).some((i) => /(^|\/)ledger-store\.js$/.test(i)),
    );
    expect(importers.sort()).toEqual(["modules/money/ledger.ts", "modules/money/service.ts"]);
  });
});
