/**
 * Runs once after Playwright has started the web server (webServer in playwright.config.ts): checks
 * that Chromium is where the config points and that the embedded upstream answers on its fixed port,
 * so that a broken environment fails with one clear message instead of every test timing out; then
 * raises the upstream's per-address limits and keeps the hand-driven market's quotes current.
 */
import fs from "node:fs";
import { operatorSetting } from "./operator";

/**
 * Every test's browser comes from 127.0.0.1, so the upstream's limits per client address
 * (upstream/platform/limits.ts) would count the whole suite as one visitor: they are raised through
 * the operator API, as an operator would. The limits per account and per recipient keep their
 * defaults, which no real user's flow reaches.
 */
const PER_ADDRESS_LIMITS = [
  "login_ip",
  "register_ip",
  "code_send_ip",
  "demo_ip",
  "captcha_ip",
  "feedback_ip",
];

async function raisePerAddressLimits(): Promise<void> {
  for (const name of PER_ADDRESS_LIMITS) await operatorSetting(`limit.${name}`, "1000000/3600");
}

/**
 * The e2e market moves only when a test ticks it (MARKET_FEED=manual), so its quotes are as old as
 * the last tick: a quote counts as current for the longest time the setting allows (an hour, far
 * longer than a run). The refusal of a stale quote is tested with explicit times in
 * tests/integration/trading-rules.test.ts.
 */
async function keepQuotesCurrent(): Promise<void> {
  await operatorSetting("market.stale_after_s", "3600");
}

export default async function globalSetup(): Promise<void> {
  if (!fs.existsSync("/usr/bin/chromium")) {
    throw new Error(
      "Debian's Chromium is missing at /usr/bin/chromium. Run `bash scripts/ensure-chromium.sh` " +
        "(as root it installs it) or `sudo apt-get install -y chromium`.",
    );
  }
  const upstream = process.env.E2E_UPSTREAM_URL;
  if (!upstream) throw new Error("E2E_UPSTREAM_URL is not set (playwright.config.ts sets it).");
  const deadline = Date.now() + 60_000;
  let lastError = "";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(
        `${upstream}/dev/outbox?to=${encodeURIComponent("nobody@example.test")}`,
      );
      const body = (await res.json()) as { code?: unknown };
      if (typeof body.code === "number") {
        await raisePerAddressLimits();
        await keepQuotesCurrent();
        return;
      }
      lastError = `unexpected body ${JSON.stringify(body).slice(0, 200)}`;
    } catch (err) {
      lastError = String(err);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(
    `The embedded upstream does not answer at ${upstream}/dev/outbox (${lastError}). The web server ` +
      "must start it with UPSTREAM_PORT and DEV_OUTBOX=1 from its environment.",
  );
}
