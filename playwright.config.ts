/**
 * Playwright end-to-end tests: the built product (web + embedded reference upstream) on a phone-sized
 * Chromium (Debian's headless shell, else /usr/bin/chromium: tests/chromium.ts), once with JavaScript
 * on ("js") and once off ("no-js").
 *
 * Run through `npm test` (scripts/test-all.sh builds first) or `npx playwright test` after
 * `npx remix build`. Environment knobs (all optional):
 *   E2E_PORT (3310), E2E_UPSTREAM_PORT (3410)  ports of the web and of the embedded upstream;
 *   E2E_REUSE=1                                reuse an already running server on E2E_PORT;
 *   E2E_SERVER_LOG=1                           show the server's log; E2E_KEEP_DATA=1 keep its data dir;
 *   E2E_TRACE=1                                record traces, keeping the failing tests' (test-results/).
 */
import { defineConfig } from "@playwright/test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { E2E_OPERATOR_TOKEN } from "./tests/e2e/operator";
import { CHROMIUM_ARGS, TEST_BROWSER_PATH } from "./tests/chromium";

const WEB_PORT = Number(process.env.E2E_PORT || 3310);
const UPSTREAM_PORT = Number(process.env.E2E_UPSTREAM_PORT || 3410);
// The message sink (tests/support/message-sink.ts): the server's SMTP server and SMS gateway.
const SINK_SMTP_PORT = WEB_PORT + 200;
const SINK_HTTP_PORT = WEB_PORT + 201;

// The config is evaluated by the runner and again by every worker: the runner makes the data
// directory once and hands it on through the environment, which the workers inherit.
process.env.E2E_DATA_DIR ||= mkdtempSync(path.join(tmpdir(), "tradepost-e2e-"));
process.env.E2E_BASE_URL ||= `http://127.0.0.1:${WEB_PORT}`;
process.env.E2E_UPSTREAM_URL ||= `http://127.0.0.1:${UPSTREAM_PORT}`;
process.env.E2E_SINK_URL ||= `http://127.0.0.1:${SINK_HTTP_PORT}`;

const dataDir = process.env.E2E_DATA_DIR;
const baseURL = process.env.E2E_BASE_URL;
const isCI = !!process.env.CI;

const POLICY_SEEN_COOKIE = {
  name: "tp_policy_seen",
  // Remix's cookie encoding (base64 of JSON) of "9999-12-31 23:59:59": later than any notice.
  value: Buffer.from(JSON.stringify("9999-12-31 23:59:59")).toString("base64"),
  domain: new URL(baseURL).hostname,
  path: "/",
  expires: -1,
  httpOnly: true,
  secure: false,
  sameSite: "Lax" as const,
};

const phone = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 1,
  isMobile: true,
  hasTouch: true,
  userAgent:
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36",
};

// Production mode as operators run it. The session cookie is then Secure and __Host- prefixed;
// Chromium accepts and returns Secure cookies on loopback (127.0.0.1) over plain http, so the
// tests exercise the real production cookie.
const serverEnv: Record<string, string> = {
  NODE_ENV: "production",
  PORT: String(WEB_PORT),
  HOST: "127.0.0.1",
  UPSTREAM_PORT: String(UPSTREAM_PORT),
  UPSTREAM_HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  MARKET_ALWAYS_OPEN: "1",
  // Codes are delivered as in production (where the dev outbox cannot be on): e-mail over SMTP and
  // SMS to a webhook, both to the message sink, which the tests read (readSentCode in fixtures.ts).
  SMTP_URL: `smtp://127.0.0.1:${SINK_SMTP_PORT}`,
  SMS_WEBHOOK_URL: `${process.env.E2E_SINK_URL}/sms`,
  // The abuse limits are on with their defaults per account; global-setup.ts raises the ones per
  // client address, since every test comes from 127.0.0.1.
  RATE_LIMIT: "1",
  SESSION_SECRET: "e2e-session-secret-0123456789abcdef",
  // Settings the tests change go through the operator API, as an operator's would.
  OPERATOR_TOKEN: E2E_OPERATOR_TOKEN,
  LOG_LEVEL: "warn",
  // Every upstream answer is checked against the contract's schema (a drift answers 500 and fails
  // the test that met it).
  CHECK_ANSWERS: "1",
  // Commits written to SQLite's log without a sync each (README, SQLITE_SYNCHRONOUS).
  SQLITE_SYNCHRONOUS: "NORMAL",
  // The market moves only when a test ticks it (POST /dev/market/price, setPrice in operator.ts):
  // no test waits for, or depends on, a random price.
  MARKET_FEED: "manual",
  // The ranking's strategy traders trade on it too (STRATEGIES=on, as "auto" trades them only on
  // the simulator), opening and closing positions within seconds, so /rank has figures.
  STRATEGIES: "on",
  STRATEGY_INTERVAL_MS: "1500",
  // Two codes to one address may be sent 5 s apart instead of a minute: a person who asks again
  // too early still sees the wait, and no test waits a minute. The minute itself is tested with
  // explicit times (tests/unit/upstream-codes.test.ts) and over HTTP (web-form-edges.test.ts).
  CODE_RESEND_S: "5",
  // The support link's setting reaches every page's CSP within a quarter second instead of five
  // (chat.after-all.ts changes it and waits for the header to follow).
  CHAT_FRAME_CACHE_MS: "250",
};

/**
 * The browser's environment: the runner's, except a faked clock. Under libfaketime (the suite run
 * on another day: `faketime … npm test`), the server and the tests take the faked clock and the
 * browser keeps the machine's, as a phone's clock is its own. Chromium does not start with
 * libfaketime loaded (its processes abort).
 */
const BROWSER_ENV: Record<string, string> = Object.fromEntries(
  Object.entries(process.env).filter(
    (e): e is [string, string] =>
      e[1] !== undefined && !(e[0] === "LD_PRELOAD" && /faketime/.test(e[1])),
  ),
);

/** The accessibility sweep's spec, which runs in projects of its own (below). */
const A11Y = /a11y\.spec\.ts$/;
/** The browser's options for the accessibility sweep: V8 as users run it (no lite mode). */
const FULL_V8 = { executablePath: TEST_BROWSER_PATH, args: CHROMIUM_ARGS, env: BROWSER_ENV };

export default defineConfig({
  testDir: "./tests/e2e",
  testMatch: /.*\.spec\.ts/,
  globalSetup: "./tests/e2e/global-setup.ts",
  globalTeardown: "./tests/e2e/global-teardown.ts",
  fullyParallel: true,
  workers: 2,
  // No retries anywhere, CI included: a flaky test fails and shows instead of passing on a rerun.
  retries: 0,
  forbidOnly: isCI,
  reporter: [["list"]],
  timeout: 60_000,
  globalTimeout: 30 * 60_000,
  expect: { timeout: 10_000 },
  outputDir: "test-results",
  use: {
    baseURL,
    ...phone,
    locale: "en-US",
    timezoneId: "UTC",
    // The policy notice is shown once to a new visitor; every spec but content.spec.ts (which
    // starts without this cookie) is a visitor who has already dismissed it.
    storageState: { cookies: [POLICY_SEEN_COOKIE], origins: [] },
    browserName: "chromium",
    actionTimeout: 10_000,
    navigationTimeout: 20_000,
    // Recording a trace of every test costs a sixth of the run (screencast and snapshots of each
    // action); a failure still prints its error, step and screenshot. E2E_TRACE=1 records them.
    trace: process.env.E2E_TRACE === "1" ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
    // V8's lite mode (interpreter only, no optimising compilers): a test's page lives for seconds,
    // so compiling its scripts for speed is work it never earns back; the renderers use about a
    // tenth less CPU. What the scripts do is the same. The benchmarks (tests/bench) run without it.
    launchOptions: {
      executablePath: TEST_BROWSER_PATH,
      args: [...CHROMIUM_ARGS, "--js-flags=--lite-mode"],
      env: BROWSER_ENV,
    },
  },
  projects: [
    { name: "js", use: { javaScriptEnabled: true }, testIgnore: [/\.after-all\.ts$/, A11Y] },
    // Every form, and every navigation (links, tab bars, pickers), in both projects. A test tagged
    // @same-without-js only opens pages and reads them, and their markup is the same without
    // JavaScript: the js run, which reads the server's HTML too, covers it, so the fast lane runs it
    // there only. The full lane (TEST_LANE=full, `npm run test:full`) runs it in both projects.
    {
      name: "no-js",
      use: { javaScriptEnabled: false },
      testIgnore: [/\.after-all\.ts$/, A11Y],
      grepInvert: process.env.TEST_LANE === "full" ? undefined : /@same-without-js/,
    },
    // The accessibility sweep, with JavaScript on and off, in a browser without V8's lite mode:
    // axe is half a megabyte of script that runs for about a second on every screen, which the
    // optimising compilers pay back (the sweep's js half: 81 s with lite mode, 66 s without).
    { name: "a11y-js", use: { javaScriptEnabled: true, launchOptions: FULL_V8 }, testMatch: A11Y },
    {
      name: "a11y-no-js",
      use: { javaScriptEnabled: false, launchOptions: FULL_V8 },
      testMatch: A11Y,
    },
    // Specs that switch an upstream setting for everyone (the sign-up captcha) run alone, after the
    // others, one project after the other.
    {
      name: "js-settings",
      use: { javaScriptEnabled: true },
      testMatch: /\.after-all\.ts$/,
      dependencies: ["js", "no-js", "a11y-js", "a11y-no-js"],
    },
    {
      name: "no-js-settings",
      use: { javaScriptEnabled: false },
      testMatch: /\.after-all\.ts$/,
      dependencies: ["js-settings"],
    },
  ],
  webServer: [
    {
      command: `exec npx tsx tests/support/message-sink.ts ${SINK_SMTP_PORT} ${SINK_HTTP_PORT}`,
      url: `${process.env.E2E_SINK_URL}/healthz`,
      timeout: 60_000,
      reuseExistingServer: process.env.E2E_REUSE === "1",
      stdout: "ignore",
      stderr: "pipe",
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    },
    {
      // scripts/test-all.sh builds first; a bare `npx playwright test` builds when no build exists.
      command: "test -f build/index.js || npx remix build; exec npx tsx server.ts",
      url: `${baseURL}/`,
      env: serverEnv,
      timeout: 180_000,
      reuseExistingServer: process.env.E2E_REUSE === "1",
      // E2E_SERVER_LOG=1, and CI, show the server's (web and upstream) log lines among the test
      // output: at LOG_LEVEL warn a few lines a run, and the stack of any failure the upstream logs.
      stdout: process.env.E2E_SERVER_LOG === "1" || process.env.CI ? "pipe" : "ignore",
      stderr: "pipe",
      gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
    },
  ],
});
