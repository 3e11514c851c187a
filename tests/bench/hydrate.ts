/**
 * npm run bench:hydrate — how long a phone waits for a page to answer a tap: from the request to
 * the moment the page has hydrated (Remix's router initialised in the browser, which is when the
 * client starts hydrating, after its scripts and the translations it reads first have arrived).
 *
 * Starts the built product (server.ts, embedded upstream), then loads each page BENCH_HYD_RUNS
 * times (default 7) in Debian's Chromium, each in a fresh context (nothing cached), on an emulated
 * phone: Lighthouse's mobile figures (150 ms round trip, 1.6 Mbit/s down, 750 kbit/s up, CPU 4x
 * slower), in English and in German (a language other than the fallback), and prints each page's
 * median and range. No goal: it reports a figure that issue 38's Lighthouse score does not
 * (its simulation scores paint and blocking time, not this wait).
 */
import { chromium, type Browser } from "@playwright/test";
import { startWeb } from "../integration/web-harness.js";
import { CHROMIUM_ARGS, CHROMIUM_PATH } from "../chromium.js";

const RUNS = Math.max(1, Number(process.env.BENCH_HYD_RUNS || 7));
const PAGES = ["/", "/login", "/trade?code=EURUSD"];
const LANGS = ["en", "de"];
/** Lighthouse's "slow 4G" mobile profile, applied by the browser itself (not simulated). */
const NETWORK = {
  offline: false,
  latency: 150,
  downloadThroughput: (1.6 * 1024 * 1024) / 8,
  uploadThroughput: (750 * 1024) / 8,
};
const CPU_SLOWDOWN = 4;

async function once(browser: Browser, base: string, path: string, lang: string): Promise<number> {
  const url = new URL(base);
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
  });
  await context.addCookies([
    // A visitor who has already dismissed the policy notice.
    {
      name: "tp_policy_seen",
      value: Buffer.from(JSON.stringify("9999-12-31 23:59:59")).toString("base64"),
      domain: url.hostname,
      path: "/",
    },
  ]);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", NETWORK);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  const sep = path.includes("?") ? "&" : "?";
  const t0 = Date.now();
  await page.goto(`${base}${path}${sep}lng=${lang}`, { waitUntil: "commit" });
  await page.waitForFunction(
    () =>
      (window as unknown as { __remixRouter?: { state?: { initialized?: boolean } } }).__remixRouter
        ?.state?.initialized === true,
    undefined,
    { timeout: 60_000, polling: 20 },
  );
  const ms = Date.now() - t0;
  await context.close();
  return ms;
}

async function main(): Promise<void> {
  const web = await startWeb({ env: { LOG_LEVEL: "error" } });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    console.log(
      `\ntime to a hydrated page, emulated phone (150 ms RTT, 1.6 Mbit/s, CPU ${CPU_SLOWDOWN}x), ${RUNS} runs each`,
    );
    console.log(`  ${"page".padEnd(22)}${"lang".padEnd(6)}${"median".padStart(9)}   range`);
    for (const lang of LANGS)
      for (const p of PAGES) {
        const t: number[] = [];
        for (let i = 0; i < RUNS; i++) t.push(await once(browser, web.base, p, lang));
        t.sort((a, b) => a - b);
        const median = t[Math.floor(t.length / 2)];
        console.log(
          `  ${p.padEnd(22)}${lang.padEnd(6)}${`${median} ms`.padStart(9)}   ${t[0]}-${t[t.length - 1]} ms`,
        );
      }
  } finally {
    await browser.close();
    await web.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
