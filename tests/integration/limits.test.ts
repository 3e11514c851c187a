/**
 * Abuse limits (upstream/platform/limits.ts) over real HTTP: sign-in counted before the password is
 * checked, sign-ups, codes sent and wrong codes, demo accounts, captcha images and orders, each
 * refused with HTTP 429, Retry-After and a translated wait; client addresses from X-Forwarded-For
 * only through a trusted proxy. Each test sets small figures through the limit.* settings.
 */
import fs from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import * as passwords from "../../upstream/modules/identity/passwords.js";
import type { UpstreamConfig } from "../../upstream/platform/config.js";
import {
  ageCodes,
  emailCode,
  registerEmail,
  startServer,
  type Server,
} from "./accounts-helpers.js";

// Password checks are counted (the real check runs): a limit must refuse before it, not after.
vi.mock("../../upstream/modules/identity/passwords.js", async (importOriginal) => {
  const real =
    await importOriginal<typeof import("../../upstream/modules/identity/passwords.js")>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});
const verifyPassword = vi.mocked(passwords.verifyPassword);

interface Answer {
  status: number;
  retryAfter: string | null;
  code: number;
  msg: string;
  data: any;
}

/** POST a form; the HTTP status, the Retry-After header and the envelope. */
async function post(
  s: Server,
  p: string,
  body: Record<string, string | number> = {},
  headers: Record<string, string> = {},
): Promise<Answer> {
  const r = await fetch(s.base + p, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString(),
  });
  const env = (await r.json()) as { code: number; msg: string; data: any };
  return { status: r.status, retryAfter: r.headers.get("retry-after"), ...env };
}

async function get(s: Server, p: string, headers: Record<string, string> = {}): Promise<Answer> {
  const r = await fetch(s.base + p, { headers });
  const env = (await r.json()) as { code: number; msg: string; data: any };
  return { status: r.status, retryAfter: r.headers.get("retry-after"), ...env };
}

/** Expects a refusal by a limit: 429 in both places, Retry-After within (0, maxS]. */
function expectLimited(a: Answer, maxS: number): void {
  expect(a.status).toBe(429);
  expect(a.code).toBe(429);
  const s = Number(a.retryAfter);
  expect(s).toBeGreaterThan(0);
  expect(s).toBeLessThanOrEqual(maxS);
}

function start(config: Partial<UpstreamConfig> = {}): Promise<Server> {
  return startServer({ rateLimit: true, ...config });
}

const login = (s: Server, account: string, password: string, lang = "en") =>
  post(s, "/api/user/loginForU", { account, password, login_type: "email" }, { lang });

describe("sign-in", () => {
  let s: Server;
  beforeAll(async () => {
    s = await start();
    await registerEmail(s, "carol@example.com", "Secret-1234");
    await registerEmail(s, "dave@example.com", "Secret-1234");
  });
  afterAll(() => s.close());

  it("checks at most 5 of 20 parallel wrong passwords; the rest and then the right one are refused until the lock ends", async () => {
    verifyPassword.mockClear();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => login(s, "carol@example.com", `wrong-pass-${i}`)),
    );
    expect(verifyPassword).toHaveBeenCalledTimes(5);
    const checked = answers.filter((a) => a.msg === "Incorrect account or password");
    const refused = answers.filter((a) => a.status === 429);
    expect(checked).toHaveLength(5);
    expect(refused).toHaveLength(15);
    for (const a of refused) {
      expectLimited(a, 15 * 60);
      expect(a.msg).toBe("Too many attempts. Try again in 15 minutes.");
    }
    const right = await login(s, "carol@example.com", "Secret-1234", "fr");
    expect(verifyPassword).toHaveBeenCalledTimes(5);
    expectLimited(right, 15 * 60);
    expect(right.msg).toBe("Trop de tentatives. Réessayez dans 15 minutes.");
    expect(right.data).toBeNull();
    // Another account from the same address is not locked.
    expect((await login(s, "dave@example.com", "Secret-1234")).code).toBe(1);
    // Once the lock has passed, the right password works and clears the count.
    s.up.ctx.db
      .prepare("UPDATE rate_limits SET expire = ? WHERE key LIKE 'login_account_ip:%'")
      .run(Date.now() - 1);
    expect((await login(s, "carol@example.com", "Secret-1234")).code).toBe(1);
    expect(
      s.up.ctx.db
        .prepare("SELECT COUNT(*) AS n FROM rate_limits WHERE key LIKE 'login_account_ip:%carol%'")
        .get(),
    ).toEqual({ n: 0 });
  });

  it("counts failures per client address across accounts; a success gives its try back", async () => {
    await s.setting("limit.login_ip", "3/3600");
    const xff = { "x-forwarded-for": "198.51.100.7" };
    const as = (account: string, password: string) =>
      post(s, "/api/user/loginForU", { account, password, login_type: "email" }, xff);
    expect((await as("dave@example.com", "Secret-1234")).code).toBe(1);
    for (const who of ["nobody1@example.com", "nobody2@example.com", "nobody3@example.com"])
      expect((await as(who, "whatever-1")).msg).toBe("Incorrect account or password");
    expectLimited(await as("nobody4@example.com", "whatever-1"), 3600);
    expectLimited(await as("dave@example.com", "Secret-1234"), 3600);
    // Another address is not affected.
    const other = { "x-forwarded-for": "198.51.100.8" };
    expect(
      (
        await post(
          s,
          "/api/user/loginForU",
          { account: "dave@example.com", password: "Secret-1234", login_type: "email" },
          other,
        )
      ).code,
    ).toBe(1);
  });
});

describe("registration, codes, demo accounts and captcha", () => {
  let s: Server;
  beforeAll(async () => {
    s = await start();
  });
  afterAll(() => s.close());
  // Each test starts from the default figures and no counts.
  afterEach(() => {
    s.up.ctx.db.exec("DELETE FROM settings WHERE key LIKE 'limit.%'; DELETE FROM rate_limits");
  });

  it("limits sign-up requests per client address", async () => {
    await s.setting("limit.register_ip", "2/3600");
    const xff = { "x-forwarded-for": "198.51.100.20" };
    const body = {
      type: "email",
      account: "reg@example.com",
      password: "Secret-1234",
      re_password: "Secret-1234",
      sms_code: "123456",
    };
    for (let i = 0; i < 2; i++)
      expect((await post(s, "/api/user/register", body, xff)).status).toBe(200);
    const refused = await post(s, "/api/user/register", body, xff);
    expectLimited(refused, 3600);
    expect(refused.msg).toBe("Too many attempts. Try again in 60 minutes.");
  });

  it("limits codes per recipient per day besides the 60 s wait, and per client address", async () => {
    await s.setting("limit.code_send_recipient", "2/86400");
    const to = "daily@example.com";
    expect((await post(s, "/api/notify/send_email", { to, type: 1 })).code).toBe(1);
    // Within 60 s the wait answers (code 0) and does not count towards the daily cap.
    expect((await post(s, "/api/notify/send_email", { to, type: 1 })).code).toBe(0);
    ageCodes(s);
    expect((await post(s, "/api/notify/send_email", { to, type: 1 })).code).toBe(1);
    ageCodes(s);
    const third = await post(s, "/api/notify/send_email", { to, type: 1 }, { lang: "de" });
    expectLimited(third, 86400);
    expect(third.msg).toBe("Zu viele Versuche. Bitte versuchen Sie es in 24 Stunden erneut.");
    expect(
      s.up.ctx.db.prepare("SELECT COUNT(*) AS n FROM verify_codes WHERE recipient = ?").get(to),
    ).toEqual({ n: 2 });

    await s.setting("limit.code_send_ip", "3/3600");
    const xff = { "x-forwarded-for": "198.51.100.30" };
    for (let i = 0; i < 3; i++)
      expect(
        (await post(s, "/api/notify/send_email", { to: `ip${i}@example.com`, type: 1 }, xff)).code,
      ).toBe(1);
    expectLimited(
      await post(s, "/api/notify/send_email", { to: "ip9@example.com", type: 1 }, xff),
      3600,
    );
    // Another address may still ask.
    const other = { "x-forwarded-for": "198.51.100.31" };
    expect(
      (await post(s, "/api/notify/send_email", { to: "ip9@example.com", type: 1 }, other)).code,
    ).toBe(1);
  });

  it("caps wrong codes per recipient per day; a new code does not reset the count", async () => {
    await s.setting("limit.code_check_recipient", "7/86400");
    const email = "guess@example.com";
    const body = {
      type: "email",
      account: email,
      password: "Secret-1234",
      re_password: "Secret-1234",
    };
    const wrongFor = (code: string) => (code === "000000" ? "111111" : "000000");
    const first = await emailCode(s, email, 1);
    for (let i = 0; i < 5; i++)
      expect(
        (await post(s, "/api/user/register", { ...body, sms_code: wrongFor(first) })).code,
      ).toBe(0);
    ageCodes(s);
    const second = await emailCode(s, email, 1);
    // Parallel guesses cannot pass the cap: 2 tries were left.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        post(s, "/api/user/register", { ...body, sms_code: wrongFor(second) }),
      ),
    );
    expect(answers.filter((a) => a.msg === "The verification code is incorrect")).toHaveLength(2);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(4);
    const right = await post(s, "/api/user/register", { ...body, sms_code: second });
    expectLimited(right, 86400);
    expect(s.up.ctx.db.prepare("SELECT 1 FROM users WHERE email = ?").get(email)).toBeUndefined();
  });

  it("a right code gives its try back", async () => {
    await s.setting("limit.code_check_recipient", "1/86400");
    await registerEmail(s, "right@example.com");
    expect(
      s.up.ctx.db
        .prepare(
          "SELECT points FROM rate_limits WHERE key = 'code_check_recipient:right@example.com'",
        )
        .get(),
    ).toEqual({ points: 0 });
  });

  it("limits demo accounts and captcha images per client address", async () => {
    await s.setting("limit.demo_ip", "2/3600");
    await s.setting("limit.captcha_ip", "3/600");
    const xff = { "x-forwarded-for": "198.51.100.40" };
    const users = () =>
      (s.up.ctx.db.prepare("SELECT COUNT(*) AS n FROM users").get() as { n: number }).n;
    for (let i = 0; i < 2; i++)
      expect((await post(s, "/api/user/createAccountDemoForU", {}, xff)).code).toBe(1);
    const before = users();
    expectLimited(await post(s, "/api/user/createAccountDemoForU", {}, xff), 3600);
    expect(users()).toBe(before);
    for (let i = 0; i < 3; i++) expect((await get(s, "/api/captcha", xff)).code).toBe(1);
    const refused = await get(s, "/api/captcha", xff);
    expectLimited(refused, 600);
    expect(refused.msg).toBe("Too many attempts. Try again in 10 minutes.");
  });
});

describe("order submission", () => {
  let s: Server;
  beforeAll(async () => {
    s = await startServer({ rateLimit: true, marketAlwaysOpen: true });
  });
  afterAll(() => s.close());

  async function demoToken(): Promise<string> {
    const c = await post(s, "/api/user/createAccountDemoForU");
    const l = await post(s, "/api/user/loginForU", { demo_id: c.data.demo_id });
    return l.data.token as string;
  }

  it("accepts a burst of orders per account and refuses the rest with the wait", async () => {
    // 10 a window as by default, in a window long enough for a loaded machine to send them all.
    await s.setting("limit.order_second", "10/30");
    const forexId = (
      s.up.ctx.db.prepare("SELECT id FROM instruments WHERE code = 'EURUSD'").get() as {
        id: number;
      }
    ).id;
    const [alice, bob] = [await demoToken(), await demoToken()];
    const order = { type: 1, cont: "0.01", forex_id: forexId, status: 1, multiple: 100 };
    const answers = await Promise.all(
      Array.from({ length: 15 }, () =>
        post(s, "/v1/api/forex/submit", order, { authorization: alice }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    const refused = answers.filter((a) => a.status === 429);
    expect(refused).toHaveLength(5);
    for (const a of refused) {
      expectLimited(a, 30);
      expect(a.msg).toMatch(/^Too many attempts\. Try again in \d+ seconds\.$/);
    }
    // Another account is not affected.
    expect((await post(s, "/v1/api/forex/submit", order, { authorization: bob })).status).toBe(200);
  });

  it("limits the copies one account starts", async () => {
    await s.setting("limit.copy_start", "2/3600");
    const [alice, bob] = [await demoToken(), await demoToken()];
    const start = (token: string) =>
      post(s, "/api/follow/copy", { provider_id: 999999, amount: "100" }, { authorization: token });
    // Each start counts, whatever its answer (here: no such trader).
    for (let i = 0; i < 2; i++) expect((await start(alice)).status).not.toBe(429);
    expectLimited(await start(alice), 3600);
    expect((await start(bob)).status).not.toBe(429);
  });
});

describe("restart", () => {
  it("keeps the counts of the limits kept in the store", async () => {
    const first = await start();
    await first.setting("limit.captcha_ip", "1/600");
    expect((await get(first, "/api/captcha")).code).toBe(1);
    await first.up.close();
    const again = await startServer({ rateLimit: true }, first.store);
    try {
      expectLimited(await get(again, "/api/captcha"), 600);
    } finally {
      await again.close();
      fs.rmSync(first.dir, { recursive: true, force: true });
    }
  });
});

describe("client address", () => {
  it("comes from X-Forwarded-For only when the peer is a trusted proxy", async () => {
    for (const [trustProxy, limitedOnSecond] of [
      ["loopback", false],
      [false, true],
    ] as const) {
      const s = await start({ trustProxy });
      try {
        await s.setting("limit.captcha_ip", "1/600");
        expect((await get(s, "/api/captcha", { "x-forwarded-for": "203.0.113.1" })).code).toBe(1);
        const second = await get(s, "/api/captcha", { "x-forwarded-for": "203.0.113.2" });
        expect(second.status).toBe(limitedOnSecond ? 429 : 200);
      } finally {
        await s.close();
      }
    }
  });
});
