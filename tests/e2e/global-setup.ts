/**
 * Runs once after Playwright has started the web server (webServer in playwright.config.ts): checks
 * that Chromium is where the config points and that the embedded upstream answers on its fixed port,
 * so that a broken environment fails with one clear message instead of every test timing out; then
 * raises the upstream's per-address limits and keeps the hand-driven market's quotes current.
 */
import fs from "node:fs";
import { generate } from "otplib";
import {
  E2E_OPERATOR_TOKEN,
  createOperatorAccount,
  operatorPost,
  operatorSetting,
  setPrice,
} from "./operator";
import { consoleSessionFile } from "./console";
import { TEST_BROWSER_PATH } from "../chromium";
import { buildNodeBundles, NODE_BUNDLE_VAR } from "../support/node-bundle";

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
  await openMarket();
}

/**
 * Ticks every instrument once at its last price, so that every quote is current from the run's
 * start whatever the day. The seeded history ends at the last minute each market was open: on a
 * weekend, Friday's close, which is older than the hour a quote stays current, and a spec that
 * trades at the price it finds would be refused as stale on Saturdays and Sundays only.
 */
async function openMarket(): Promise<void> {
  const res = await fetch(`${process.env.E2E_UPSTREAM_URL}/v1/api/forex/trade_list`);
  const list = (await res.json()) as {
    data: { Code: string; PricePrecision: number; ForexQuotations: { Close: number } }[];
  };
  for (const i of list.data)
    await setPrice(i.Code, i.ForexQuotations.Close.toFixed(i.PricePrecision));
}

/**
 * A fresh install hides its seeded deposit channels and bank account (migration 025): placeholders
 * are not the broker's. The specs that deposit need them shown, which an operator asks for through
 * the operator API and a second operator approves (operatorPost), as a broker's team does before
 * opening. The console's "enable a deposit channel" first step is tested on a fresh install in
 * tests/integration/web-console-first-step.test.ts.
 */
async function showSeededDeposits(): Promise<void> {
  const upstream = process.env.E2E_UPSTREAM_URL;
  for (const noun of ["charge_channels", "wire_accounts"]) {
    const res = await fetch(`${upstream}/admin/api/${noun}`, {
      headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
    });
    const list = (await res.json()) as { data: { id: number; enabled: number }[] };
    for (const entry of list.data.filter((e) => !e.enabled))
      await operatorPost(`/${noun}/${entry.id}`, { enabled: "1" });
  }
}

/** The name=value pairs of a response's Set-Cookie headers, merged into `jar`. */
function keepCookies(res: Response, jar: Map<string, string>): void {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(";");
    const i = pair.indexOf("=");
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
}

/**
 * One operator of the run, made by the operator command and signed in once through the console's
 * sign-in form (name, password, TOTP code) over HTTP; its session cookies are kept for the specs
 * whose subject is a console screen (openConsole in console.ts), so that each of them does not
 * make an operator and sign in through the screen again.
 */
async function openSharedConsoleSession(): Promise<void> {
  const base = process.env.E2E_BASE_URL;
  if (!base) throw new Error("E2E_BASE_URL is not set (playwright.config.ts sets it).");
  const op = createOperatorAccount(`e2e-console-${Date.now().toString(36)}`);
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const page = await fetch(`${base}/operator/login`);
  keepCookies(page, jar);
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1];
  if (!csrf) throw new Error("no CSRF token on /operator/login");
  const res = await fetch(`${base}/operator/login`, {
    method: "POST",
    redirect: "manual",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      cookie: cookie(),
      origin: base,
    },
    body: new URLSearchParams({
      csrf,
      name: op.name,
      password: op.password,
      code: await generate({ secret: op.secret }),
    }).toString(),
  });
  if (res.status !== 302) throw new Error(`the console sign-in answered ${res.status}`);
  keepCookies(res, jar);
  const cookies = [...jar].map(([name, value]) => ({
    name,
    value,
    domain: new URL(base).hostname,
    path: "/",
    httpOnly: true,
    secure: name.startsWith("__Host-") || name.startsWith("__Secure-"),
    sameSite: "Lax" as const,
  }));
  fs.writeFileSync(consoleSessionFile(), JSON.stringify({ name: op.name, cookies }), {
    mode: 0o600,
  });
}

export default async function globalSetup(): Promise<void> {
  if (!fs.existsSync(TEST_BROWSER_PATH)) {
    throw new Error(
      `Debian's Chromium is missing at ${TEST_BROWSER_PATH}. Run \`bash scripts/ensure-chromium.sh\` ` +
        "(as root it installs it) or `sudo apt-get install -y chromium`.",
    );
  }
  const upstream = process.env.E2E_UPSTREAM_URL;
  if (!upstream) throw new Error("E2E_UPSTREAM_URL is not set (playwright.config.ts sets it).");
  // The operator's commands (operator.ts, ledger-check) run from one bundle, as in vitest
  // (tests/support/node-bundle.ts); the workers inherit the variable, the teardown removes it.
  process.env[NODE_BUNDLE_VAR] = await buildNodeBundles();
  const deadline = Date.now() + 60_000;
  let lastError = "";
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${upstream}/api/default/area_list`);
      const body = (await res.json()) as { code?: unknown };
      if (typeof body.code === "number") {
        await raisePerAddressLimits();
        await keepQuotesCurrent();
        await showSeededDeposits();
        await openSharedConsoleSession();
        return;
      }
      lastError = `unexpected body ${JSON.stringify(body).slice(0, 200)}`;
    } catch (err) {
      lastError = String(err);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(
    `The embedded upstream does not answer at ${upstream}/api/default/area_list (${lastError}). ` +
      "The web server must start it with UPSTREAM_PORT from its environment.",
  );
}
