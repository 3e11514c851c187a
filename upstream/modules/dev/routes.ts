/**
 * Development helpers, registered only while DEV_OUTBOX is on (the default exactly while no SMTP_URL
 * is set): the latest verification code sent to an address, and the answer of a captcha, so that a
 * person or a test can finish sign-up with no mail server. Absent (404) otherwise.
 *
 * With MARKET_FEED=manual, also the price setter of that hand-driven market (operator token only):
 * a tick at the given price (positive, checked by its contract field), through the same path as the
 * simulator's ticks (quotes, candles, the order engine, the websocket). Absent (404) with the
 * simulator.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/dev";
import { route } from "../../platform/http/route.js";
import type { AppContext } from "../../platform/context.js";
import { DomainError, CODE_FAIL, CODE_NOT_FOUND } from "../../platform/errors.js";
import { latestOutboxCode } from "../../platform/mail/outbox.js";
import { captchaAnswer } from "../identity/captcha.js";
import type { ManualFeed } from "../market/manual-feed.js";
import { ORDER_MODE } from "@contract/enums";
import { providerById } from "../copy/store.js";
import { fundProvider, STRATEGY_CAPITAL_USD } from "../follow/strategies.js";
import { dec, usdToMicro } from "../money/decimal.js";

export function registerDevRoutes(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.marketFeed === "manual") {
    registerPriceSetter(app, ctx);
    registerHandDrivenProviders(app, ctx);
  }
  if (!ctx.config.devOutbox) return;
  const { db } = ctx;

  route(app, api.outbox, async (req) => {
    const row = latestOutboxCode(db, req.query.to);
    if (!row) throw new DomainError("accounts.outbox_empty", CODE_NOT_FOUND);
    return ctx.ok(req, row);
  });

  route(app, api.captchaAnswer, async (req) => {
    const { id } = req.query;
    const text = captchaAnswer(db, id);
    if (!text) throw new DomainError("accounts.captcha_invalid", CODE_NOT_FOUND);
    return ctx.ok(req, { id, text });
  });
}

function registerPriceSetter(app: FastifyInstance, ctx: AppContext): void {
  const feed = ctx.feed as Partial<ManualFeed> | null;
  route(app, api.marketPrice, async (req) => {
    const { code, price } = req.body;
    if (!feed?.set || !feed.instrument?.(code))
      throw new DomainError("market.invalid_forex_id", CODE_FAIL);
    const q = feed.set(code, Number(price));
    // Answered once what the tick set off (its stops, pending fills, stop-outs: commands of the
    // sequencer) is written and announced, so the caller reads the market as it now stands.
    await ctx.sequencer.idle();
    return ctx.ok(req, { code: q.code, price: q.price, time: q.time });
  });
}

/** The style of a hand-driven provider: the strategy runner trades only its own STRATEGIES. */
const HAND_DRIVEN = "manual";

function registerHandDrivenProviders(app: FastifyInstance, ctx: AppContext): void {
  const handDriven = (id: number) => {
    const p = providerById(ctx.db, id);
    if (!p || p.style !== HAND_DRIVEN)
      throw new DomainError("copy_provider_not_found", CODE_NOT_FOUND);
    return p.user_id;
  };

  route(app, api.providerCreate, async (req) => {
    const name = req.body.name;
    const id = fundProvider(ctx.db, ctx.money, {
      name,
      style: HAND_DRIVEN,
      capital: usdToMicro(STRATEGY_CAPITAL_USD),
    });
    return ctx.ok(req, { id, name });
  });

  route(app, api.providerTrade, async (req) => {
    const userId = handDriven(req.body.id);
    const feed = ctx.feed as Partial<ManualFeed>;
    const last = ctx.feed.quote(req.body.code);
    if (!last || !feed.set) throw new DomainError("market.invalid_forex_id", CODE_FAIL);
    // A tick at the last price first: the order fills at it however long the market stood still.
    const q = feed.set(req.body.code, last.price);
    const inst = ctx.engine.instrument(q.id);
    const order = await ctx.sequencer.run(() =>
      ctx.engine.submit(userId, {
        side: req.body.side,
        status: ORDER_MODE.MARKET,
        instrumentId: q.id,
        lots: dec(req.body.lots),
        // The instrument's highest leverage: the least margin for the provider's capital.
        leverage: Math.max(1, ...(inst?.multiples ?? [])),
        targetPrice: null,
        takeProfit: null,
        stopLoss: null,
      }),
    );
    return ctx.ok(req, { id: order.id });
  });

  route(app, api.providerClose, async (req) => {
    const userId = handDriven(req.body.id);
    const closed = await ctx.sequencer.run(() => {
      const ids = ctx.engine.openPositionIds(userId);
      for (const id of ids) ctx.engine.close(userId, id);
      return ids;
    });
    return ctx.ok(req, { closed });
  });
}
