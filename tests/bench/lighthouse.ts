/**
 * npm run bench:lighthouse — Lighthouse (the npm package) on Debian's Chromium, mobile (its default:
 * a mid-range phone on a slow 4G link, simulated), against the built product.
 *
 * Starts server.ts with its embedded upstream, signs in one demo account, then:
 *   - performance of /, /trade and /login: score, LCP, TBT, CLS, and the audits that cost points;
 *   - accessibility of every user screen (visitors' and the signed-in account's): score, and the
 *     failing audits of any screen below 100.
 * Performance is simulated from one observed load (Lighthouse's default "simulate" throttling), which
 * varies from run to run on a shared 2-core machine: each page runs BENCH_LH_RUNS times (default 5)
 * and the run with the median score is reported, as Lighthouse's own guidance on variance suggests.
 * Goals (issue 10): performance 100 on /, /trade and /login; accessibility 100 on every screen.
 * BENCH_STRICT=1 makes an unmet goal exit 1. CHROMIUM_PATH overrides /usr/bin/chromium.
 * BENCH_LH_PAGES (comma-separated paths) measures the performance of those pages only, and
 * BENCH_LH_A11Y=0 leaves out the accessibility pass: for comparing builds on one page.
 *
 * Lighthouse is one of the project's optional tools (tools/lighthouse, decision 0028): the npm
 * script installs it on its first run, and it is loaded from there, with the part of its types
 * this bench reads written below (the type check of `npm test` runs without it).
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { cookieHeader, demoSignIn, startWeb } from "../integration/web-harness.js";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../chromium.js";

const PERFORMANCE = process.env.BENCH_LH_PAGES
  ? process.env.BENCH_LH_PAGES.split(",").filter(Boolean)
  : ["/", "/trade?code=EURUSD", "/login"];
const ACCESSIBILITY = process.env.BENCH_LH_A11Y !== "0";
const RUNS = Math.max(1, Number(process.env.BENCH_LH_RUNS || 5));
const VISITOR_SCREENS = [
  "/",
  "/trade?code=EURUSD",
  "/login",
  "/register",
  "/forgot",
  "/language",
  "/news",
  "/news/detail?id=1",
  "/rank",
  "/rank?view=copy",
  "/product",
  "/feedback",
];
const ACCOUNT_SCREENS = [
  "/order",
  "/order?status=2",
  "/user",
  "/mine/announcement",
  "/mine/announcement?id=1",
  "/mine/history",
  "/mine/charge",
  "/mine/withdraw",
  "/mine/wallet",
  "/mine/auth",
  "/mine/password",
  "/mine/email",
  "/mine/invite",
  "/mine/chat",
  "/mine/system",
];

/** The policy notice's dismissal (Remix's cookie encoding: base64 of JSON), later than any notice. */
const POLICY_SEEN = `tp_policy_seen=${Buffer.from(JSON.stringify("9999-12-31 23:59:59")).toString("base64")}`;

/** What this bench reads of Lighthouse's result (its `LH.Result`). */
interface Lhr {
  runtimeError?: { code?: string; message: string };
  categories: Record<string, { score: number | null; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, { id: string; score: number | null; displayValue?: string }>;
}

interface LighthouseFlags {
  port: number;
  logLevel: "error";
  output: "json";
  onlyCategories: string[];
  extraHeaders: Record<string, string>;
}

interface Tools {
  lighthouse: (url: string, flags: LighthouseFlags) => Promise<{ lhr: Lhr } | undefined>;
  launch: (o: { chromePath: string; chromeFlags: string[] }) => Promise<{
    port: number;
    kill: () => Promise<void> | void;
  }>;
}

const TOOL_MODULES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../tools/lighthouse/node_modules",
);

async function loadTools(): Promise<Tools> {
  const at = (p: string) => pathToFileURL(path.join(TOOL_MODULES, p)).href;
  const lh = (await import(at("lighthouse/core/index.js"))) as { default: Tools["lighthouse"] };
  const cl = (await import(at("chrome-launcher/dist/index.js"))) as { launch: Tools["launch"] };
  return { lighthouse: lh.default, launch: cl.launch };
}

let tools: Tools;

/**
 * Loads of one page that may end in Lighthouse's NO_NAVSTART ("Something went wrong with recording
 * the trace… Please run Lighthouse again"): on this machine's Chromium about one bench run in three
 * met it once, with the visitors' page cache on and off alike. Such a load measured nothing; it is
 * loaded again, said in the output, and does not count.
 */
const TRACE_ATTEMPTS = 3;

async function run(
  url: string,
  port: number,
  categories: string[],
  cookie: string | null,
  attempt = 1,
): Promise<Lhr> {
  const result = await tools.lighthouse(url, {
    port,
    logLevel: "error",
    output: "json",
    onlyCategories: categories,
    // A visitor who has dismissed the policy notice, like the Playwright tests.
    extraHeaders: { Cookie: [POLICY_SEEN, cookie].filter(Boolean).join("; ") },
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const failed = result.lhr.runtimeError;
  if (failed && failed.code === "NO_NAVSTART" && attempt < TRACE_ATTEMPTS) {
    console.log(
      `  (${url}: Lighthouse lost the trace of this load, ${failed.code}; loading again)`,
    );
    return run(url, port, categories, cookie, attempt + 1);
  }
  if (failed) throw new Error(`${url}: ${failed.message}`);
  return result.lhr;
}

/** The audits of a category that did not score full marks, with their shown value. */
function losses(lhr: Lhr, category: string): string[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  return refs
    .filter((r) => r.weight > 0)
    .map((r) => lhr.audits[r.id])
    .filter((a) => a && a.score !== null && a.score < 1)
    .map((a) => `${a.id}${a.displayValue ? ` (${a.displayValue})` : ""}`);
}

const score = (lhr: Lhr, c: string) => Math.round((lhr.categories[c]?.score ?? 0) * 100);

async function main() {
  tools = await loadTools();
  const web = await startWeb({ env: { LOG_LEVEL: "error" } });
  const chrome = await tools.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: ["--headless=new", ...CHROMIUM_ARGS],
  });
  let met = true;
  try {
    const { jar } = await demoSignIn(web.base, "%2F");
    const cookie = cookieHeader(jar);

    console.log("");
    console.log(`Lighthouse mobile performance (goal 100; median of ${RUNS} runs)`);
    for (const path of PERFORMANCE) {
      const runs: Lhr[] = [];
      for (let i = 0; i < RUNS; i++)
        runs.push(await run(web.base + path, chrome.port, ["performance"], null));
      runs.sort((x, y) => score(x, "performance") - score(y, "performance"));
      const lhr = runs[Math.floor(runs.length / 2)];
      const a = lhr.audits;
      const s = score(lhr, "performance");
      met &&= s === 100;
      console.log(
        `  ${path.padEnd(22)} ${String(s).padStart(3)}   LCP ${a["largest-contentful-paint"].displayValue}   TBT ${a["total-blocking-time"].displayValue}   CLS ${a["cumulative-layout-shift"].displayValue}   FCP ${a["first-contentful-paint"].displayValue}`,
      );
      const lost = losses(lhr, "performance");
      const all = runs.map((r) => score(r, "performance")).join(", ");
      console.log(
        `  ${"".padEnd(22)} runs: ${all}${lost.length ? `; below full marks: ${lost.join(", ")}` : ""}`,
      );
    }

    const screens = [
      ...VISITOR_SCREENS.map((p) => ({ path: p, cookie: null as string | null })),
      ...ACCOUNT_SCREENS.map((p) => ({ path: p, cookie })),
    ].filter(() => ACCESSIBILITY);
    if (ACCESSIBILITY) {
      console.log("");
      console.log("Lighthouse accessibility (goal 100 on every screen)");
    }
    for (const { path, cookie: c } of screens) {
      const lhr = await run(web.base + path, chrome.port, ["accessibility"], c);
      const s = score(lhr, "accessibility");
      met &&= s === 100;
      const lost = s < 100 ? `   failing: ${losses(lhr, "accessibility").join(", ")}` : "";
      console.log(
        `  ${path.padEnd(26)} ${String(s).padStart(3)}${c ? "   (signed in)" : ""}${lost}`,
      );
    }
    console.log("");
    console.log(`  goal: ${met ? "MET" : "NOT MET"}`);
    if (!met && process.env.BENCH_STRICT) process.exitCode = 1;
  } finally {
    await chrome.kill();
    await web.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
