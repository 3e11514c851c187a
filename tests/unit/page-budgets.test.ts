/**
 * Page weight budgets (docs/budgets.json, decision 0011): the JavaScript a page makes a phone
 * download before any lazy import, read from the production build's manifest (the entry, the root
 * route, the page's routes and each one's static imports) and gzip-compressed file by file at level
 * 9, so the figure is the same on every run of the same build. A page over its budget fails here;
 * a new chunk the page loads at first paint counts at once, a lazily imported one (the chart) not.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuild } from "../integration/web-harness.js";

const ROOT = path.resolve(__dirname, "../..");
const KIB = 1024;

interface Budgets {
  pages: Record<string, { route: string; budgetKb: number; goalKb?: number }>;
}
interface Manifest {
  entry: { module: string; imports?: string[] };
  routes: Record<string, { module: string; imports?: string[]; parentId?: string }>;
}

/** The build's route manifest (public/build/manifest-*.js, as the browser receives it). */
function readManifest(): Manifest {
  const dir = path.join(ROOT, "public/build");
  const file = fs.readdirSync(dir).find((f) => /^manifest-[A-Z0-9]+\.js$/.test(f));
  if (!file) throw new Error("no manifest in public/build: the build did not run");
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  return JSON.parse(text.replace(/^window\.__remixManifest=/, "").replace(/;\s*$/, "")) as Manifest;
}

/** The files a page loads before any lazy import: the entry's, then each route's up to the root. */
export function firstLoad(m: Manifest, leaf: string): string[] {
  const files = new Set([m.entry.module, ...(m.entry.imports ?? [])]);
  for (let id: string | undefined = leaf; id !== undefined; id = m.routes[id].parentId) {
    if (!m.routes[id]) throw new Error(`route ${id} is not in the build`);
    files.add(m.routes[id].module);
    for (const f of m.routes[id].imports ?? []) files.add(f);
  }
  return [...files];
}

const gzipBytes = (url: string) =>
  zlib.gzipSync(fs.readFileSync(path.join(ROOT, "public", url)), { level: 9 }).length;

const budgets = JSON.parse(
  fs.readFileSync(path.join(ROOT, "docs/budgets.json"), "utf8"),
) as Budgets;

describe("page weight budgets", () => {
  let manifest: Manifest;
  beforeAll(() => {
    ensureBuild();
    manifest = readManifest();
  }, 180_000);

  it("counts a page's routes up to the root and every file once", () => {
    const m: Manifest = {
      entry: { module: "/e.js", imports: ["/shared.js"] },
      routes: {
        root: { module: "/root.js", imports: ["/shared.js"] },
        "routes/a": { module: "/a.js", parentId: "root", imports: ["/lazy-not-listed.js"] },
        "routes/a.b": { module: "/b.js", parentId: "routes/a", imports: ["/shared.js"] },
      },
    };
    expect(firstLoad(m, "routes/a.b").sort()).toEqual(
      ["/a.js", "/b.js", "/e.js", "/lazy-not-listed.js", "/root.js", "/shared.js"].sort(),
    );
    expect(() => firstLoad(m, "routes/none")).toThrow(/not in the build/);
  });

  for (const [page, b] of Object.entries(budgets.pages))
    it(`${page} loads at most ${b.budgetKb} KiB of JavaScript (gzip) at first`, () => {
      const files = firstLoad(manifest, b.route);
      const kib = files.reduce((sum, f) => sum + gzipBytes(f), 0) / KIB;
      console.log(
        `${page}: ${kib.toFixed(1)} KiB gzip in ${files.length} files (budget ${b.budgetKb}${b.goalKb ? `, goal ${b.goalKb}` : ""})`,
      );
      expect(kib, `${page}: ${files.length} files`).toBeLessThanOrEqual(b.budgetKb);
    });
});
