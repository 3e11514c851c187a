/**
 * Shared helpers of the end-to-end specs. Every helper drives the real UI like a person (fill, tap)
 * on a phone-sized page; the only side door is the message sink the server mails and texts its
 * codes to (tests/support/message-sink.ts), read as a person reads their inbox.
 */
import {
  test as base,
  expect,
  type Browser,
  type BrowserContext,
  type Page,
  type TestInfo,
} from "@playwright/test";
import { upstream, web } from "./texts";
import { waitForCode, type SinkMessage } from "../support/message-sink";

export { expect };

export const UPSTREAM_URL = process.env.E2E_UPSTREAM_URL ?? "http://127.0.0.1:3410";

/** True when the test runs in the JavaScript-enabled project. */
export function jsOn(info: TestInfo): boolean {
  return info.project.use.javaScriptEnabled !== false;
}

let counter = 0;
/** An e-mail address no other test (or retry) uses. */
export function uniqueEmail(info: TestInfo, tag = "u"): string {
  counter += 1;
  const rand = Math.random().toString(36).slice(2, 8);
  return `e2e-${tag}-${info.project.name}-w${info.workerIndex}-${Date.now().toString(36)}-${counter}${rand}@example.test`;
}

export const PASSWORD = "Tr4de-post!e2e";

/** A valid TRC20 address (base58check with the TRON prefix) to withdraw to. */
export const TRON = "TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk";

/** Where the e2e server delivers its codes (playwright.config.ts starts it). */
const SINK_URL = process.env.E2E_SINK_URL ?? "http://127.0.0.1:3511";

/** The subject of each purpose's code e-mail, as an English-speaking person receives it. */
const SUBJECTS = {
  1: upstream("en", "accounts", "accounts.mail_subject_register"),
  2: upstream("en", "accounts", "accounts.mail_subject_reset"),
} as const;

/**
 * The latest verification code the server sent to an address: an e-mail address, or a mobile number
 * as texted ("+" country code, digits). `type` (1 register, 2 reset password) waits for an e-mail of
 * that purpose, so that an older code sent to the same address (the sign-up code before a reset) is
 * not taken for the new one.
 */
export function readSentCode(to: string, timeoutMs = 10_000, type?: 1 | 2): Promise<string> {
  return waitForCode(SINK_URL, to, {
    timeoutMs,
    accept: (m) => type === undefined || m.subject === SUBJECTS[type],
  });
}

/** Every message the server has sent to an address so far. */
export async function sentTo(to: string): Promise<SinkMessage[]> {
  const res = await fetch(`${SINK_URL}/messages?to=${encodeURIComponent(to)}`);
  return (await res.json()) as SinkMessage[];
}

const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

/** A labelled form field (the label a person reads; the tests run in English). */
export function field(page: Page, labelKey: string) {
  return page.getByLabel(EN(labelKey), { exact: true });
}

/** A button by its visible English text. */
export function button(page: Page, textKey: string) {
  return page.getByRole("button", { name: EN(textKey), exact: true });
}

/** On /register: fill the e-mail and press the send-code button; returns the code the server mailed. */
export async function requestRegisterCode(page: Page, email: string): Promise<string> {
  await page.goto("/register");
  await field(page, "auth:email").fill(email);
  await button(page, "auth:send_code").click();
  // The button turns into a countdown (computed by the server without JavaScript).
  await expect(page.locator('button[value="send_code"]')).toBeDisabled();
  return readSentCode(email);
}

/** Registers by e-mail through the UI; ends on /login. */
export async function registerByEmail(
  page: Page,
  email: string,
  password = PASSWORD,
): Promise<void> {
  const code = await requestRegisterCode(page, email);
  const account = field(page, "auth:email");
  await expect(account).toHaveValue(email);
  await field(page, "auth:code").fill(code);
  await field(page, "auth:password").fill(password);
  await field(page, "auth:re_password").fill(password);
  await button(page, "auth:register_submit").click();
  await expect(page).toHaveURL(/\/login(\?|$)/);
}

/** Signs in on the login form shown now (or opens /login first). */
export async function signIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith("/login")) await page.goto("/login");
  await field(page, "auth:email").fill(email);
  await field(page, "auth:password").fill(password);
  await button(page, "auth:login_submit").click();
}

/** One-tap demo account from /login; ends signed in on /. */
export async function signInDemo(page: Page): Promise<void> {
  await page.goto("/login");
  await button(page, "auth:demo_submit").click();
  await expect(page).toHaveURL(HOME);
}

/** The URL of the home page (any query). */
export const HOME = /^https?:\/\/[^/]+\/(\?.*)?$/;

/** An upstream API POST with a form body (lang en); the envelope. */
export async function upstreamPost<T>(
  path: string,
  body: Record<string, string | number>,
): Promise<{ code: number; msg: string; data: T }> {
  const res = await fetch(`${UPSTREAM_URL}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", lang: "en" },
    body: new URLSearchParams(
      Object.fromEntries(Object.entries(body).map(([k, v]) => [k, String(v)])),
    ).toString(),
  });
  return (await res.json()) as { code: number; msg: string; data: T };
}

/** Registers an account by e-mail over the upstream API (optionally with an invite code). */
export async function registerEmailByApi(email: string, inviteCode?: string): Promise<void> {
  const sent = await upstreamPost("/api/notify/send_email", { to: email, type: 1 });
  expect(sent.code, sent.msg).toBe(1);
  const code = await readSentCode(email, 10_000, 1);
  const reg = await upstreamPost("/api/user/register", {
    type: "email",
    account: email,
    password: PASSWORD,
    re_password: PASSWORD,
    sms_code: code,
    ...(inviteCode ? { invite_code: inviteCode } : {}),
  });
  expect(reg.code, reg.msg).toBe(1);
}

/**
 * Posts one of the web's sign-in forms (/login, intent `login` or `demo`) over HTTP with the page's
 * own request client (its cookies are the page's): the same CSRF check and session cookie as the
 * screen's form, without drawing the page. The page stays where it is.
 */
async function postLoginForm(page: Page, fields: Record<string, string>): Promise<void> {
  const base = process.env.E2E_BASE_URL!;
  const login = await page.request.get("/login");
  const csrf = /name="csrf" value="([^"]+)"/.exec(await login.text())?.[1];
  expect(csrf, "the login form's CSRF token").toBeTruthy();
  const res = await page.request.post("/login", {
    form: { csrf: csrf!, ...fields },
    headers: { origin: base },
    maxRedirects: 0,
  });
  expect(res.status(), await res.text()).toBe(302);
  // The page it leads to shows the sign-in's toast once (a flash in the session), as a browser
  // following the redirect would; the next screen the test opens starts without it.
  const next = await page.request.get(res.headers()["location"]!);
  expect(next.status()).toBe(200);
}

/** Signs the page's browser in with the login form, posted over HTTP (see postLoginForm). */
export async function signInByForm(page: Page, email: string, password = PASSWORD): Promise<void> {
  await postLoginForm(page, { intent: "login", login_type: "email", account: email, password });
}

/**
 * A new demo account for the page's browser, through the demo form posted over HTTP (see
 * postLoginForm); the page has not navigated. Tapping the demo button on the screen is the subject
 * of demo.spec, navigation.spec and rank.spec, which use signInDemo.
 */
export async function demoByForm(page: Page): Promise<void> {
  await postLoginForm(page, { intent: "demo" });
}

/**
 * A fresh, signed-in real account: registered over the upstream API and signed in through the
 * login form over HTTP (signing up through the screens is the subject of auth.spec, journey.spec
 * and account.spec);
 * returns its e-mail. The page has not navigated.
 */
export async function newSignedInUser(page: Page, info: TestInfo): Promise<string> {
  const email = uniqueEmail(info);
  await registerEmailByApi(email);
  await signInByForm(page, email);
  return email;
}

/** Parses a displayed number like "10,000.00", "+1.234567" or "−0.5" (locale en). */
export function num(text: string): number {
  const cleaned = text.replace(/[−–]/g, "-").replace(/[^\d.+-]/g, "");
  const n = Number(cleaned);
  if (!Number.isFinite(n)) throw new Error(`not a number: ${JSON.stringify(text)}`);
  return n;
}

/** Browser-side failures a person would suffer from: uncaught errors, failed hydration, broken route modules. */
const BROKEN = /Error loading route module|hydrat|Minified React error|Uncaught/i;

/** What the browser reports when the page breaks its Content-Security-Policy (csp.spec.ts). */
const CSP_VIOLATION = /Content Security Policy/i;

/**
 * Browser-side problems of a page, collected in `problems`: uncaught errors, broken route modules,
 * and any breach of the Content-Security-Policy (an inline style or script without the nonce), so
 * that every screen every test opens, in every state it reaches, is held to the policy.
 */
function watch(page: Page, problems: string[]): void {
  page.on("pageerror", (err) => problems.push(`uncaught: ${err.message}`));
  page.on("console", (msg) => {
    const text = msg.text();
    if (msg.type() === "error" && BROKEN.test(text)) problems.push(`console: ${text}`);
    else if (CSP_VIOLATION.test(text)) problems.push(`CSP: ${page.url()}: ${text}`);
  });
}

/** Remix's router in the page is idle: no navigation, revalidation or fetcher (a form post) running. */
function remixIdle(): boolean {
  const router = (
    window as unknown as {
      __remixRouter?: {
        state: {
          navigation: { state: string };
          revalidation: string;
          fetchers: Map<string, { state: string }>;
        };
      };
    }
  ).__remixRouter;
  if (!router) return true;
  const s = router.state;
  return (
    s.navigation.state === "idle" &&
    s.revalidation === "idle" &&
    [...s.fetchers.values()].every((f) => f.state === "idle")
  );
}

/**
 * In the JavaScript project, every `goto` first lets a form the previous step posted be answered
 * (with JavaScript a post is a fetch, not a navigation, so leaving the page would cancel it), and
 * afterwards waits until Remix has booted in the browser.
 */
function waitForRemixOnGoto(page: Page, info: TestInfo): void {
  if (!jsOn(info)) return;
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    await page.waitForFunction(remixIdle, undefined, { timeout: 15_000 }).catch((err: Error) => {
      // A page already leaving (its document replaced) has nothing left to wait for.
      if (!/context was destroyed|navigation|Target .*closed/i.test(err.message)) throw err;
    });
    const res = await goto(url, options);
    await remixBooted(page);
    return res;
  };
}

/**
 * Waits until Remix has booted in the page. `goto` does this itself in the JavaScript project; a
 * plain form post (an upload form) loads a new document, after which a test that goes on with the
 * JavaScript path calls this first.
 */
export async function remixBooted(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      (window as unknown as { __remixRouter?: { state?: { initialized?: boolean } } }).__remixRouter
        ?.state?.initialized === true,
    undefined,
    { timeout: 15_000 },
  );
}

/**
 * A second, independent browser (another device of the same person): a new context with the
 * project's options (JavaScript on or off, phone viewport, base URL) and the same checks as `page`.
 * Call `done()` at the end: it closes the context and fails on browser errors.
 */
export async function secondDevice(
  browser: Browser,
  info: TestInfo,
): Promise<{ page: Page; context: BrowserContext; done: () => Promise<void> }> {
  const use = info.project.use;
  const context = await browser.newContext({
    baseURL: use.baseURL,
    viewport: use.viewport,
    deviceScaleFactor: use.deviceScaleFactor,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
    userAgent: use.userAgent,
    locale: use.locale,
    timezoneId: use.timezoneId,
    javaScriptEnabled: jsOn(info),
  });
  context.setDefaultTimeout(10_000);
  context.setDefaultNavigationTimeout(20_000);
  const page = await context.newPage();
  const problems: string[] = [];
  watch(page, problems);
  waitForRemixOnGoto(page, info);
  return {
    page,
    context,
    done: async () => {
      await context.close();
      expect(problems, "errors reported by the second browser").toEqual([]);
    },
  };
}

/**
 * `test` with a `page` that, in the JavaScript project, waits after every `goto` until Remix has
 * booted in the browser (so the JavaScript path is what is tested, and a page whose scripts never
 * run fails), and that fails the test when the browser reports an uncaught error or a breach of the
 * Content-Security-Policy.
 */
export const test = base.extend({
  page: async ({ page }, use, info) => {
    const problems: string[] = [];
    watch(page, problems);
    waitForRemixOnGoto(page, info);
    await use(page);
    expect(problems, "errors reported by the browser").toEqual([]);
  },
});
