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

export function registerDevRoutes(app: FastifyInstance, ctx: AppContext): void {
  if (ctx.config.marketFeed === "manual") registerPriceSetter(app, ctx);
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
    return ctx.ok(req, { code: q.code, price: q.price, time: q.time });
  });
}
