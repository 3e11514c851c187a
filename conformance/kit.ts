/**
 * The conformance kit: a black-box scenario run against any back end (the reference upstream or a
 * broker's own) over HTTP and the websocket, every answer and every frame checked against the
 * contract's schemas (contract/api/*, contract/ws.ts). `npm run conformance -- URL` prints one line
 * per check and a summary (conformance/main.ts); docs/own-back-end.md says what each check needs.
 *
 * Order: the market (categories, quotes, candles); a demo account; the websocket (ping, login,
 * subscriptions and their first pushes); a market order with take profit and stop loss (and its
 * FOREX_TRADE push), a pending order listed and cancelled, the stops changed, the position closed
 * (and its FOREX_CLOSED push); the refusals a client relies on (a bad field, a session that is not
 * one, a demo account on a money call); with a real account: an upload, a deposit declaration
 * (approved with the operator token when one is given), a withdrawal and its cancel; last, the rate
 * limit (it may hold the address for a while).
 */
import sharp from "sharp";
import * as api from "@contract/api/trading";
import * as market from "@contract/api/market";
import * as identity from "@contract/api/identity";
import type { SignInAnswer } from "@contract/api/identity";
import * as finance from "@contract/api/finance";
import * as common from "@contract/api/common";
import * as admin from "@contract/api/admin";
import * as dev from "@contract/api/dev";
import { CODE } from "@contract/envelope";
import {
  CHARGE_STATUS,
  DRAW_TYPE,
  MARKET_STATUS,
  ORDER_MODE,
  ORDER_STATUS,
  ORDER_TAB,
  ORDER_TYPE,
  WITHDRAW_STATUS,
} from "@contract/enums";
import { klineTopic, TOPIC } from "@contract/constants";
import type { Instrument } from "@contract/api/market";
import { CheckFailed, Client, Socket, type Notes } from "./client.js";

export interface KitOptions {
  /** The back end's base URL (http://host:port), its websocket at the same address. */
  base: string;
  /** A real account to use for the money checks; without one the kit signs up (needs /dev/outbox). */
  account?: string;
  password?: string;
  /** An operator's token (Bearer): the console's part (the deposit approved). */
  operatorToken?: string;
  /** Called with each check's line as it ends. */
  onCheck?: (c: CheckResult) => void;
}

export interface CheckResult {
  name: string;
  outcome: "pass" | "fail" | "skip";
  detail: string;
}

export interface Report {
  checks: CheckResult[];
  notes: Notes;
  passed: boolean;
}

/** Addresses each withdrawal network accepts (valid checksums), for the withdrawal check. */
const ADDRESSES: Record<string, string> = {
  TRC20: "TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk",
  ERC20: "0x52908400098527886E0F7030069857D2E4169EE7",
  BTC: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
};

class Run {
  readonly checks: CheckResult[] = [];
  readonly notes: Notes = [];
  readonly http: Client;

  constructor(readonly o: KitOptions) {
    this.http = new Client(o.base.replace(/\/+$/, ""), this.notes);
  }

  /** Runs one check; a failure is recorded (with the field it names) and the run goes on. */
  async check<T>(name: string, fn: () => Promise<T>): Promise<T | undefined> {
    try {
      const out = await fn();
      this.record({ name, outcome: "pass", detail: "" });
      return out;
    } catch (err) {
      const detail = err instanceof CheckFailed ? err.message : `error: ${(err as Error).message}`;
      this.record({ name, outcome: "fail", detail });
      return undefined;
    }
  }

  skip(name: string, why: string): void {
    this.record({ name, outcome: "skip", detail: why });
  }

  private record(c: CheckResult): void {
    this.checks.push(c);
    this.o.onCheck?.(c);
  }
}

function expect(cond: unknown, what: string): asserts cond {
  if (!cond) throw new CheckFailed(what);
}

/** A price `pct` percent away from `price`, at the instrument's precision. */
const away = (i: Instrument, price: number, pct: number) =>
  Number((price * (1 + pct / 100)).toFixed(i.PricePrecision));

export async function runConformance(o: KitOptions): Promise<Report> {
  const r = new Run(o);
  const http = r.http;

  // ---- the market
  await r.check("market: categories", () => http.ok(market.getCategories));
  const instruments = await r.check("market: instruments with their quotes", async () => {
    const list = await http.ok(market.tradeList);
    expect(list.length > 0, "trade_list lists no instrument");
    return list;
  });
  const inst = instruments?.find(
    (i) => i.MarketStatus === MARKET_STATUS.OPEN && i.HasForexMultiple.length > 0,
  );
  if (!inst) {
    r.skip("trading", "no instrument is open with a leverage to trade (MarketStatus 1)");
    return finish(r);
  }
  await r.check(`market: candles of ${inst.Code}`, async () => {
    const candles = await http.ok(market.kline, { forex_id: inst.Code });
    expect(candles.length > 0, `kline of ${inst.Code} has no candle`);
  });

  // ---- a demo account and the websocket
  const demo = await r.check("account: a demo account signs in", async () => {
    const created = await http.ok(identity.createAccountDemoForU);
    const login = await http.ok(identity.loginForU, { demo_id: created.demo_id });
    const token = signedIn(login);
    await http.ok(identity.userInfo, {}, { token });
    return token;
  });
  if (!demo) return finish(r);
  const ws = await r.check("websocket: ping, login and subscriptions", async () => {
    const s = await Socket.open(http.base);
    s.send({ op: "ping" });
    await s.next("pong", (m) => m.op === "pong");
    s.send({ op: "login", token: demo });
    const login = await s.next("login answer", (m) => m.op === "login");
    expect("code" in login && login.code === CODE.OK, "the websocket login was refused");
    const topics = [TOPIC.DAY_MARKET, klineTopic(inst.Code), TOPIC.FOREX_TRADE, TOPIC.FOREX_CLOSED];
    s.send({ op: "subscribe", topics });
    const sub = await s.next("subscribe answer", (m) => m.op === "subscribe");
    expect("code" in sub && sub.code === CODE.OK, "the subscription was refused");
    await s.next("DAY_MARKET push", (m) => m.op === "push" && m.topic === TOPIC.DAY_MARKET);
    await s.next("KLINE push", (m) => m.op === "push" && m.topic === klineTopic(inst.Code));
    return s;
  });

  // ---- orders
  const token = { token: demo };
  const price = inst.ForexQuotations.Close;
  const order = {
    forex_id: inst.Id,
    type: ORDER_TYPE.BUY,
    cont: String(inst.ForexMinCont),
    multiple: inst.HasForexMultiple[0]!.Value,
  };
  const position = await r.check(
    "trade: a market order with take profit and stop loss",
    async () => {
      const p = await http.ok(
        api.submit,
        {
          ...order,
          status: ORDER_MODE.MARKET,
          target_profit_price: away(inst, price, 5),
          stop_loss_price: away(inst, price, -5),
        },
        { ...token, idempotencyKey: `conformance-${Date.now()}` },
      );
      expect(p.Status === ORDER_STATUS.OPEN, `the order's Status is ${p.Status}, not open (1)`);
      expect(p.TargetProfitPrice > 0 && p.TargetLossPrice > 0, "the stops were not kept");
      return p;
    },
  );
  if (position && ws)
    await r.check("websocket: FOREX_TRADE push with the position", () =>
      ws.next("FOREX_TRADE push with the position", (m) => {
        if (m.op !== "push" || m.topic !== TOPIC.FOREX_TRADE) return false;
        const d = m.data as { TransOrder: { Id: number }[] };
        return d.TransOrder.some((t) => t.Id === position.Id);
      }),
    );
  await r.check("trade: a pending order is listed and cancelled", async () => {
    const p = await http.ok(
      api.submit,
      { ...order, status: ORDER_MODE.PENDING, target_price: away(inst, price, -10) },
      token,
    );
    expect(p.Status === ORDER_STATUS.PENDING, `the pending order's Status is ${p.Status}`);
    const page = await http.ok(api.myDeal, { status: ORDER_TAB.PENDING }, token);
    expect(
      page.data.some((x) => x.Id === p.Id),
      "my_deal's pending tab does not list it",
    );
    const c = await http.ok(api.cancelTrade, { id: p.Id }, token);
    expect(c.Status === ORDER_STATUS.CANCELLED, `the cancelled order's Status is ${c.Status}`);
  });
  if (position) {
    await r.check("trade: the position's stops changed", async () => {
      const p = await http.ok(
        api.setStopPrice,
        { id: position.Id, target_profit_price: away(inst, price, 6), stop_loss_price: 0 },
        token,
      );
      expect(p.TargetLossPrice === 0, "a stop loss of 0 did not clear it");
    });
    await r.check("trade: the position closed", async () => {
      const p = await http.ok(api.close, { id: position.Id }, token);
      expect(p.Status === ORDER_STATUS.CLOSED, `the closed position's Status is ${p.Status}`);
    });
    if (ws)
      await r.check("websocket: FOREX_CLOSED push with the position", () =>
        ws.next("FOREX_CLOSED push with the position", (m) => {
          if (m.op !== "push" || m.topic !== TOPIC.FOREX_CLOSED) return false;
          return (m.data as { ids: number[] }).ids.includes(position.Id);
        }),
      );
  }
  await r.check("account: values", () => http.ok(api.forexDetail, {}, token));

  // ---- refusals a client relies on
  await r.check("refusal: a bad field answers 400 with the envelope", async () => {
    const a = await http.call(api.submit, { ...order, cont: "lots" }, token);
    expect(a.status === 400, `HTTP ${a.status}, not 400`);
    expect(a.envelope.code === CODE.FAIL && a.envelope.msg, "no code 0 with a message");
  });
  await r.check("refusal: a session that is not one answers code 999", async () => {
    const a = await http.call(identity.userInfo, {}, { token: "not-a-session" });
    expect(a.envelope.code === CODE.SESSION_INVALID, `code ${a.envelope.code}, not 999`);
  });
  await r.check("refusal: a demo account on a money call", async () => {
    const a = await http.call(finance.drawList, { type: DRAW_TYPE.ADDRESS }, token);
    expect(a.envelope.code === CODE.FAIL && a.envelope.msg, `code ${a.envelope.code}, not 0`);
  });
  ws?.assertConforming();
  ws?.close();

  await money(r);

  await r.check("refusal: the rate limit answers 429 with Retry-After", async () => {
    for (let i = 0; i < 200; i++) {
      const a = await http.call(identity.loginForU, {
        login_type: "email",
        account: "conformance-nobody@example.com",
        password: "not-the-password-1",
      });
      if (a.status !== 429) continue;
      expect(a.envelope.code === CODE.RATE_LIMITED, `code ${a.envelope.code}, not 429`);
      expect(Number(a.headers.get("retry-after")) > 0, "no Retry-After");
      return;
    }
    throw new CheckFailed("200 failed sign-ins in a row were never limited (429)");
  });
  return finish(r);
}

/** A real account's money: an upload, a deposit declaration, a withdrawal and its cancel. */
async function money(r: Run): Promise<void> {
  const http = r.http;
  const real = await realAccount(r);
  if (!real) return;
  const token = { token: real };
  const proof = await r.check("money: an image is uploaded", async () => {
    const png = await sharp({
      create: { width: 24, height: 24, channels: 3, background: "#2a7" },
    })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "proof.png");
    return http.ok(common.imageUpload, {}, { ...token, form });
  });
  const charge = await r.check("money: a deposit is declared and listed", async () => {
    expect(proof, "no uploaded image to name");
    const info = await http.ok(finance.quickChargeInfo, {}, token);
    expect(info.channels.length > 0, "quickCharge/info lists no deposit channel");
    const c = await http.ok(
      finance.quickChargeSubmit,
      {
        number: String(Math.max(info.min, 100)),
        proofImg: proof.name,
        charge_id: info.channels[0]!.id,
      },
      { ...token, idempotencyKey: `conformance-charge-${Date.now()}` },
    );
    expect(c.status === CHARGE_STATUS.UNCHECKED, `the deposit's status is ${c.status}, not 0`);
    const list = await http.ok(finance.quickList, { type: c.type }, token);
    expect(
      list.data.some((x) => x.id === c.id),
      "quickCharge/list does not list the deposit",
    );
    return c;
  });
  if (r.o.operatorToken && charge)
    await r.check("operator: the deposit is in the queue and approved", async () => {
      const op = { token: `Bearer ${r.o.operatorToken}` };
      const queue = await http.ok(admin.charges, {}, op);
      expect(
        queue.data.some((x) => x.id === charge.id),
        "the operators' deposit queue does not list it",
      );
      await http.ok(admin.approveCharge, {}, { ...op, pathParams: { id: charge.id } });
    });
  else
    r.skip(
      "operator: the deposit approved",
      r.o.operatorToken ? "no deposit was declared" : "no CONFORMANCE_OPERATOR_TOKEN",
    );
  await r.check("money: a withdrawal is requested and cancelled", async () => {
    const coins = await http.ok(finance.drawSymbolList, { type: DRAW_TYPE.ADDRESS }, token);
    const coin = coins.find((c) => ADDRESSES[c.protocol]);
    expect(
      coin,
      "no withdrawal currency on a network the kit has an address for (TRC20, ERC20, BTC)",
    );
    const dest = await http.ok(
      finance.bindDrawMethod,
      { type: DRAW_TYPE.ADDRESS, draw_id: coin.id, dc_address: ADDRESSES[coin.protocol] },
      token,
    );
    const balance = (await http.ok(api.forexDetail, {}, token)).can_use;
    const amount = Math.max(coin.min, 10);
    const a = await http.call(
      finance.draw,
      { draw_currency_id: coin.id, number: String(amount), draw_method_id: dest.id },
      { ...token, idempotencyKey: `conformance-draw-${Date.now()}` },
    );
    if (balance < amount) {
      expect(a.envelope.code === CODE.FAIL, "a withdrawal above the free margin was not refused");
      throw new CheckFailed(
        `the account's free margin (${balance} USD) is below ${amount} USD: fund it (an operator token approves the deposit) to check a withdrawal`,
      );
    }
    const d = a.envelope.data;
    expect(a.envelope.code === CODE.OK && d, `the withdrawal was refused: ${a.envelope.msg}`);
    expect(d.status === WITHDRAW_STATUS.REVIEWING, `the withdrawal's status is ${d.status}`);
    const c = await http.ok(finance.drawCancel, { id: d.id }, token);
    expect(
      c.status === WITHDRAW_STATUS.CANCELLED,
      `the cancelled withdrawal's status is ${c.status}`,
    );
  });
}

/** The real account's token: the given account, or a new one signed up with the outbox's code. */
async function realAccount(r: Run): Promise<string | undefined> {
  const http = r.http;
  if (r.o.account && r.o.password) {
    const { account, password } = r.o;
    return r.check("account: the given real account signs in", async () => {
      const login = await http.ok(identity.loginForU, {
        login_type: account.includes("@") ? "email" : "mobile",
        account,
        password,
      });
      return signedIn(login);
    });
  }
  const email = `conformance-${Date.now()}@example.com`;
  const password = `Conformance-${Date.now()}`;
  const sent = await http.call(identity.sendEmail, { to: email, type: 1 });
  const box = await http.call(dev.outbox, { to: email });
  if (sent.envelope.code !== CODE.OK || box.envelope.code !== CODE.OK) {
    r.skip(
      "money",
      "no real account: give CONFORMANCE_ACCOUNT and CONFORMANCE_PASSWORD (or a development outbox)",
    );
    return undefined;
  }
  return r.check("account: a real account signs up and signs in", async () => {
    await http.ok(identity.register, {
      type: "email",
      account: email,
      password,
      re_password: password,
      sms_code: box.envelope.data!.code,
    });
    const login = await http.ok(identity.loginForU, {
      login_type: "email",
      account: email,
      password,
    });
    return signedIn(login);
  });
}

/** The token of a sign-in; an account with two-factor on cannot be driven by the kit. */
function signedIn(login: SignInAnswer): string {
  if ("second_factor" in login)
    throw new Error("the account has two-factor sign-in on: give one without it");
  return login.token;
}

function finish(r: Run): Report {
  return {
    checks: r.checks,
    notes: r.notes,
    passed: r.checks.every((c) => c.outcome !== "fail"),
  };
}
