/**
 * The operator console in the end-to-end specs: a real operator account (made by the operator
 * command, tests/e2e/operator.ts) signed in through /operator/login with its password and a TOTP code
 * computed like an authenticator app does; and a real user's money made through the user API.
 */
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page, TestInfo } from "@playwright/test";
import sharp from "sharp";
import { generate } from "otplib";
import { expect, PASSWORD, UPSTREAM_URL, TRON } from "./fixtures";
import { createOperatorAccount, type OperatorAccount } from "./operator";
import type { OperatorRole } from "../../contract/operators";
import { web } from "./texts";

export const EN = (key: string, params?: Record<string, string | number>) => web("en", key, params);

/** A fresh operator account for one test (its codes are never replayed by another test). */
export function newOperator(
  info: TestInfo,
  tag = "op",
  role: OperatorRole = "admin",
): OperatorAccount {
  const name = `e2e-${tag}-${info.project.name}-${info.workerIndex}-${Date.now().toString(36)}`;
  return createOperatorAccount(name.slice(0, 40), role);
}

/** The authenticator's current code. */
export const totp = (op: OperatorAccount) => generate({ secret: op.secret });

/**
 * The authenticator's next code (its clock a step ahead), which the upstream accepts as well (one
 * step either side): a second sign-in within the same 30 s needs no wait for a fresh code.
 */
export const nextTotp = (op: OperatorAccount) =>
  generate({ secret: op.secret, epoch: Math.floor(Date.now() / 1000) + 30 });

/** Fills and posts the console's sign-in form (on /operator/login). */
export async function fillOperatorLogin(page: Page, op: OperatorAccount, code: string) {
  await page.getByLabel(EN("operator:name"), { exact: true }).fill(op.name);
  await page.getByLabel(EN("operator:password"), { exact: true }).fill(op.password);
  await page.getByLabel(EN("operator:code"), { exact: true }).fill(code);
  await page.getByRole("button", { name: EN("operator:sign_in"), exact: true }).click();
}

/** A new operator signed in to the console through its sign-in screen; ends on /operator. */
export async function signInOperator(page: Page, info: TestInfo): Promise<OperatorAccount> {
  const op = newOperator(info);
  await page.goto("/operator/login");
  await fillOperatorLogin(page, op, await totp(op));
  await expect(page).toHaveURL(/\/operator$/);
  await expect(page.getByTestId("operator-name")).toHaveText(op.name);
  return op;
}

/** The shared console session global-setup.ts signed in (its cookies, and the operator's name). */
interface ConsoleSession {
  name: string;
  cookies: Parameters<import("@playwright/test").BrowserContext["addCookies"]>[0];
}

/** Where global-setup.ts keeps the shared console session (in the e2e server's DATA_DIR). */
export function consoleSessionFile(): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set (playwright.config.ts sets it)");
  return path.join(dataDir, "e2e-console-session.json");
}

/**
 * Signs the page's browser in to the console as the shared operator of the run: the session
 * global-setup.ts opened through the sign-in form (password and TOTP code), its cookie given to
 * this context. For a test whose subject is the console's screens, not signing in (sign-in and
 * its refusals are operator-console.spec's and journey.spec's, with their own operators). Ends on
 * /operator; answers the operator's name.
 */
export async function openConsole(page: Page): Promise<string> {
  const session = JSON.parse(fs.readFileSync(consoleSessionFile(), "utf8")) as ConsoleSession;
  await page.context().addCookies(session.cookies);
  await page.goto("/operator");
  await expect(page.getByTestId("operator-name")).toHaveText(session.name);
  return session.name;
}

interface Envelope<T = any> {
  code: number;
  msg: string;
  data: T;
}

/** A call of the user API with a user's token. */
export async function userApi<T = any>(
  token: string,
  method: "GET" | "POST",
  path: string,
  params: Record<string, string | number> = {},
): Promise<Envelope<T>> {
  const url = new URL(UPSTREAM_URL + path);
  const body = new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]));
  if (method === "GET") for (const [k, v] of body) url.searchParams.set(k, v);
  const res = await fetch(url, {
    method,
    headers: {
      authorization: token,
      lang: "en",
      ...(method === "POST" ? { "content-type": "application/x-www-form-urlencoded" } : {}),
    },
    body: method === "POST" ? body.toString() : undefined,
  });
  return (await res.json()) as Envelope<T>;
}

/** The upstream token and uid of a registered account (signed in once more through the API). */
export async function userSession(email: string): Promise<{ token: string; uid: string }> {
  const r = await userApi("", "POST", "/api/user/loginForU", {
    account: email,
    password: PASSWORD,
    login_type: "email",
  });
  expect(r.code, r.msg).toBe(1);
  return { token: r.data.token, uid: String(r.data.user.uid) };
}

/** An image uploaded through the user API (a plain square of `color`); its name. */
async function uploadAs(token: string, color: string): Promise<string> {
  const jpeg = await sharp({ create: { width: 24, height: 24, channels: 3, background: color } })
    .jpeg()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "image.jpg");
  const up = (await (
    await fetch(`${UPSTREAM_URL}/api/common/image_upload`, {
      method: "POST",
      headers: { authorization: token },
      body: form,
    })
  ).json()) as Envelope<{ name: string }>;
  expect(up.code, up.msg).toBe(1);
  return up.data.name;
}

/** A coin deposit of `usd` with a real JPEG proof, made through the user API; its id. */
export async function depositAs(token: string, usd: string): Promise<number> {
  const proof = await uploadAs(token, "#09c");
  const info = await userApi(token, "GET", "/api/quickCharge/info");
  const c = await userApi(token, "POST", "/api/quickCharge/submit", {
    number: usd,
    proofImg: proof,
    charge_id: info.data.channels[0].id,
  });
  expect(c.code, c.msg).toBe(1);
  return c.data.id;
}

/** A verification request with both sides of an ID and the id number `card`, through the user API. */
export async function verificationAs(token: string, card: string): Promise<void> {
  const [front, back] = [await uploadAs(token, "#c90"), await uploadAs(token, "#09c")];
  const r = await userApi(token, "POST", "/api/user_real/real_name", {
    name: "Vera Viewer",
    card_id: card,
    front_pic: front,
    reverse_pic: back,
  });
  expect(r.code, r.msg).toBe(1);
}

/** A withdrawal of `usd` to a bound TRC20 address, through the user API; its id. */
export async function withdrawAs(token: string, usd: string): Promise<number> {
  const cur = (await userApi(token, "GET", "/api/account/draw_symbol_list", { type: 1 })).data[0];
  const m = await userApi(token, "POST", "/api/wallet/bind_draw_method", {
    type: 1,
    draw_id: cur.id,
    dc_address: TRON,
  });
  expect(m.code, m.msg).toBe(1);
  const d = await userApi(token, "POST", "/api/account/draw", {
    draw_currency_id: cur.id,
    number: usd,
    draw_method_id: m.data.id,
  });
  expect(d.code, d.msg).toBe(1);
  return d.data.id;
}

export async function balanceOf(token: string): Promise<{ balance: number; lock_balance: number }> {
  return (await userApi(token, "GET", "/v1/api/main/account/forexDetail")).data;
}

/**
 * Opens the queue pages from the first until the item is shown (other specs' items may come first:
 * the queue is oldest first); fails after `maxPages`.
 */
export async function openQueueItem(
  page: Page,
  base: string,
  testId: string,
  id: number,
  maxPages = 20,
) {
  const item = page.locator(`[data-testid="${testId}"][data-id="${id}"]`);
  for (let n = 1; n <= maxPages; n++) {
    await page.goto(`${base}&page=${n}`);
    if ((await item.count()) > 0) {
      // An operator scrolls to the item; its proof image is lazily loaded, so one below the fold
      // (other tests' requests queued above it) loads only once it is in view.
      await item.scrollIntoViewIfNeeded();
      return item;
    }
    if ((await page.locator('a[rel="next"]').count()) === 0) break;
  }
  throw new Error(`${testId} ${id} is not in ${base}`);
}

/**
 * A second operator (an admin of their own) in a browser context of their own, signed in through
 * the console's sign-in, with the test's project options (JavaScript on or off): the colleague who
 * approves what the first operator filed. Close it at the end of the test.
 */
export async function secondOperator(
  browser: Browser,
  info: TestInfo,
): Promise<{ page: Page; op: OperatorAccount; close: () => Promise<void> }> {
  const use = info.project.use;
  const context = await browser.newContext({
    baseURL: use.baseURL,
    javaScriptEnabled: use.javaScriptEnabled,
    viewport: use.viewport,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
    userAgent: use.userAgent,
    locale: use.locale,
    timezoneId: use.timezoneId,
  });
  const page = await context.newPage();
  const op = newOperator(info, "two");
  await page.goto("/operator/login");
  await fillOperatorLogin(page, op, await totp(op));
  await expect(page.getByTestId("operator-name")).toHaveText(op.name);
  return { page, op, close: () => context.close() };
}

/**
 * Approves, on /operator/requests, the pending request whose text holds `text` (its target or
 * change), with a remark; ends when the console says it took effect.
 */
export async function approvePending(page: Page, text: string, remark = "Checked (e2e)") {
  await page.goto("/operator/requests?status=0");
  const item = page.getByTestId("request").filter({ hasText: text });
  await expect(item).toHaveCount(1);
  const id = await item.getAttribute("data-id");
  const form = item.getByTestId("approve-form");
  await form.getByLabel(EN("operator:remark"), { exact: true }).fill(remark);
  await form.getByRole("button").click();
  await expect(
    page
      .getByText(EN("operator:request_done_approve", { id: String(id) }), { exact: true })
      .first(),
  ).toBeVisible();
}
