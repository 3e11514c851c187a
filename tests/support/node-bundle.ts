/**
 * The upstream (upstream/main.ts) and the web server (server.ts) as the tests start them: one
 * esbuild bundle of each, built once per vitest run (bundle-setup.ts, about 0.3 s), run by plain
 * Node. A start through tsx resolves and compiles every TypeScript module in a loader thread: about
 * 2.1 CPU-seconds against 1.2 for the bundle, and the suite starts some seventy of them.
 *
 * The bundle is the same code: packages stay outside it (node_modules, as in production), and each
 * module's `import.meta.url` is its source file's, so migrations, locales, seeds and the PostgreSQL
 * worker are found where they are. Outside a vitest run (npm run soak, a bench) nodeArgsFor falls
 * back to tsx and the source.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Names the run's bundle folder to the test processes. */
export const NODE_BUNDLE_VAR = "TRADEPOST_TEST_NODE_BUNDLE";

export type NodeEntry = "upstream" | "server" | "operator" | "ledger-check" | "db-writer";
const SOURCES: Record<NodeEntry, string> = {
  upstream: "upstream/main.ts",
  server: "server.ts",
  // The operator's commands (`npm run operator`, `npm run ledger:check`), which tests run as an
  // operator would.
  operator: "upstream/operator.ts",
  "ledger-check": "upstream/ledger-check.ts",
  // Store-concurrency's writer: a process that opens a store and commits to it.
  "db-writer": "tests/integration/fixtures/db-writer.ts",
};

/** Keeps `import.meta.url` of every bundled module its own source file's URL. */
const sourceUrls: esbuild.Plugin = {
  name: "source-urls",
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, async (args) => ({
      contents: (await fs.promises.readFile(args.path, "utf8")).replaceAll(
        "import.meta.url",
        JSON.stringify(pathToFileURL(args.path).href),
      ),
      loader: args.path.endsWith(".tsx") ? "tsx" : "ts",
    }));
  },
};

/**
 * Builds both bundles into a new folder under node_modules/.cache (inside the project, so that
 * their imports of packages resolve as the sources' do); its path.
 */
export async function buildNodeBundles(): Promise<string> {
  const cache = path.join(ROOT, "node_modules", ".cache");
  fs.mkdirSync(cache, { recursive: true });
  const dir = fs.mkdtempSync(path.join(cache, "tradepost-test-bundle-"));
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(
      Object.entries(SOURCES).map(([k, v]) => [k, path.join(ROOT, v)]),
    ),
    outdir: dir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    sourcemap: "linked",
    alias: { "~": path.join(ROOT, "app"), "@contract": path.join(ROOT, "contract") },
    // server.ts starts the embedded upstream from the bundle beside it.
    define: { __TRADEPOST_BUNDLED__: "true" },
    plugins: [sourceUrls],
    logLevel: "warning",
  });
  return dir;
}

/**
 * The Node arguments that start `entry` (before any of its own): the run's bundle when a vitest
 * run built one, else the TypeScript source through tsx.
 */
export function nodeArgsFor(entry: NodeEntry): string[] {
  const dir = process.env[NODE_BUNDLE_VAR];
  if (dir && fs.existsSync(path.join(dir, `${entry}.mjs`)))
    return ["--enable-source-maps", path.join(dir, `${entry}.mjs`)];
  return ["--import", "tsx", SOURCES[entry]];
}
