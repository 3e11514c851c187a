/**
 * The money boundary of the upstream: one store file holds the SQL that writes ledger rows and
 * moves balances, and only the money service imports it. (The import rules, the engine's and the
 * money services' freedom from HTTP among them, and where SQL may be written are checked by
 * tests/unit/architecture.test.ts.)
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../support/source-files.js";

const ROOT = path.resolve(__dirname, "../../upstream");

function importsOf(file: string): string[] {
  const src = fs.readFileSync(path.join(ROOT, file), "utf8");
  return [...src.matchAll(/^\s*(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]);
}

describe("upstream boundaries", () => {
  it("only the money service writes ledger rows", () => {
    const files = (dir: string) =>
      sourceFiles(`upstream/${dir}`).map((f) => f.slice("upstream/".length));
    // Exactly one module holds the SQL that writes ledger rows and moves balances...
    const writers = files("modules")
      .concat(files("platform"))
      .filter((f) =>
        /INSERT INTO ledger|UPDATE users SET balance_micro/.test(
          fs.readFileSync(path.join(ROOT, f), "utf8"),
        ),
      );
    // ...and the PostgreSQL driver's batch writer, which only merges, inside a sequencer batch, the
    // rows and guarded bookings the money service wrote into fewer statements (pg-coalesce.ts: it
    // matches the service's own texts and folds their values; tests/unit/pg-coalesce.test.ts).
    expect(writers).toEqual(["modules/money/ledger-store.ts", "platform/store/pg-coalesce.ts"]);
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
