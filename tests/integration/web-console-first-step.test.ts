/**
 * A fresh install offers users no way to deposit: the seeded channels and bank account are
 * placeholders, hidden (migration 025) until the broker's own are entered and shown, which a
 * second operator approves. The console's home says so as its first step, until one is shown.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "otplib";
import {
  cookieHeader,
  newOperatorAccount,
  postPageForm,
  registerEmailOverApi,
  showSeededDeposits,
  startWeb,
  type WebServer,
} from "./web-harness";

const OPERATOR = "first-step-operator-token-0123456789";
const PASSWORD = "Secret-1234";
let web: WebServer;

beforeAll(async () => {
  web = await startWeb({ env: { OPERATOR_TOKEN: OPERATOR } });
}, 180_000);

afterAll(async () => {
  await web?.close();
}, 30_000);

/** The console's home (/operator) as a signed-in operator sees it: its HTML. */
async function consoleHome(jar: Map<string, string>): Promise<string> {
  const res = await fetch(`${web.base}/operator`, {
    headers: { cookie: cookieHeader(jar) },
    redirect: "manual",
  });
  expect(res.status).toBe(200);
  return res.text();
}

/** What a signed-in user is offered to deposit with: coin channels and bank accounts. */
async function offered(token: string): Promise<{ channels: number; wires: number }> {
  const get = async (p: string) =>
    (await (await fetch(web.upstreamBase + p, { headers: { authorization: token } })).json()) as {
      code: number;
      data: any;
    };
  const info = await get("/api/quickCharge/info");
  const wire = await get("/api/quickCharge/wire_info");
  expect(info.code).toBe(1);
  expect(wire.code).toBe(1);
  return { channels: info.data.channels.length, wires: wire.data.length };
}

describe("a fresh install's deposits", () => {
  it("are hidden from users, and the console's home asks to enable a channel until one is shown", async () => {
    const email = `first-step-${process.pid}-${Date.now()}@example.com`;
    await registerEmailOverApi(web, email, PASSWORD);
    const login = (await (
      await fetch(`${web.upstreamBase}/api/user/loginForU`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ account: email, password: PASSWORD }).toString(),
      })
    ).json()) as { code: number; data: { token: string } };
    expect(login.code).toBe(1);
    const token = login.data.token;
    expect(await offered(token)).toEqual({ channels: 0, wires: 0 });

    const op = newOperatorAccount(web, "viewer");
    const { res, jar } = await postPageForm(web.base, "/operator/login", {
      name: op.name,
      password: op.password,
      code: await generate({ secret: op.secret }),
    });
    expect(res.status).toBe(302);
    const before = await consoleHome(jar);
    expect(before).toContain('data-testid="first-step"');
    expect(before).toContain("First step: let users deposit");
    expect(before).toContain('href="/operator/channels"');
    expect(before).toContain('href="/operator/wire-accounts"');

    // One operator asks to show the seeded entries, another approves (the harness's team).
    await showSeededDeposits(web, OPERATOR);
    expect(await offered(token)).toEqual({ channels: 4, wires: 1 });
    expect(await consoleHome(jar)).not.toContain('data-testid="first-step"');
  }, 60_000);
});
