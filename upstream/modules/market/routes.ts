/**
 * Market API (upstream/API.md, "Market" and "Websocket"): categories, the instrument list with live
 * quotes, candles, sparkline closes, instrument logos, and the public websocket topics DAY_MARKET and
 * KLINE.{code}. Every handler is a GET that changes nothing; `t` is accepted and ignored.
 */
import { fileAnswer } from "../../platform/http/openapi.js";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import * as api from "@contract/api/market";
import { categoryExists, instrumentByCode, instrumentById, listCategories } from "./store.js";
import { newestCloses } from "./candles-store.js";
import { route } from "../../platform/http/route.js";
import type { AppContext } from "../../platform/context.js";
import type { Quote } from "./feed.js";
import { DomainError, CODE_NOT_FOUND } from "../../platform/errors.js";
import { instrumentName, translate, type Lang } from "../../platform/i18n.js";
import { DEFAULT_PERIOD, DEFAULT_SPARKLINE_PERIOD, SPARKLINE_POINTS } from "@contract/constants";
import { readCandles, round2, sparklinePoints } from "./candles.js";
import { loadInstruments, type InstrumentRow } from "./instruments.js";

const LOGO_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "static",
  "logos",
);
const KLINE_LIMIT = 300;

export function registerMarketRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const { feed, candles: book } = ctx;

  /**
   * Instrument by Id (digits) or Code, as the schema read it (contract/api/market.ts); DomainError
   * when unknown.
   */
  function instrumentOf(ref: string): InstrumentRow {
    const inst = /^\d{1,9}$/.test(ref)
      ? instrumentById(db, { id: Number(ref) })
      : instrumentByCode(db, { code: ref });
    if (!inst) throw new DomainError("market.not_found", CODE_NOT_FOUND, { id: ref });
    return inst;
  }

  function quoteOf(inst: InstrumentRow): Quote {
    const q = feed.quote(inst.id);
    if (q) return q;
    // No feed quote (a foreign feed without this instrument): the stored day candle is the best we know.
    const day = book.last(inst.id, "1day");
    const min = book.last(inst.id, "1min");
    const price = min?.close ?? day?.close ?? inst.base_price;
    const open = day?.open ?? price;
    return {
      id: inst.id,
      code: inst.code,
      price,
      open,
      high: day?.high ?? price,
      low: day?.low ?? price,
      volume: day?.volume ?? 0,
      change: open > 0 ? Math.round(((price - open) / open) * 10000) / 100 : 0,
      time: min?.time ?? 0,
    };
  }

  const isOpen = (id: number) => feed.isOpen(id);

  function tradeItem(inst: InstrumentRow, lang: Lang) {
    const q = quoteOf(inst);
    let multiples: number[] = [];
    try {
      const parsed = JSON.parse(inst.multiples) as unknown;
      if (Array.isArray(parsed))
        multiples = parsed.map(Number).filter((n) => Number.isFinite(n) && n > 0);
    } catch {
      multiples = [];
    }
    return {
      Id: inst.id,
      Code: inst.code,
      ShowCode: instrumentName(lang, inst.code, inst.show_code),
      Logo: inst.logo,
      CategoryId: inst.category_id,
      MarketStatus: isOpen(inst.id) ? 1 : 0,
      PricePrecision: inst.price_precision,
      Pip: Number(inst.pip),
      ForexMinCont: Number(inst.min_lots),
      ForexContNum: Number(inst.cont_num),
      MarginMode: inst.margin_mode,
      HasForexMultiple: multiples.map((Value) => ({ Value })),
      ForexFeeRate: Number(inst.fee_rate),
      QuoteCurrency: inst.quote_currency,
      ForexQuotations: {
        Open: q.open,
        Close: q.price,
        High: q.high,
        Low: q.low,
        Volume: round2(q.volume),
        Change: q.change,
        Time: q.time,
      },
      Api: inst.api,
    };
  }

  route(app, api.getCategories, async (req) => {
    const rows = listCategories(db);
    const data = rows.map((r) => {
      let names: Record<string, string> = {};
      try {
        names = JSON.parse(r.names) as Record<string, string>;
      } catch {
        names = {};
      }
      return { Id: r.id, NameShowTrans: names[req.lang] ?? names.en ?? String(r.id) };
    });
    return ctx.ok(req, data);
  });

  route(app, api.tradeList, async (req) => {
    const categoryId = req.query.category_id ?? null;
    if (categoryId !== null && !categoryExists(db, { id: categoryId }))
      throw new DomainError("market.category_not_found", CODE_NOT_FOUND);
    const needle = (req.query.searchCurrency ?? "").toLowerCase();
    const data = loadInstruments(db)
      .filter((i) => categoryId === null || i.category_id === categoryId)
      .filter(
        (i) =>
          !needle ||
          i.code.toLowerCase().includes(needle) ||
          i.show_code.toLowerCase().includes(needle),
      )
      .map((inst) => tradeItem(inst, req.lang));
    return ctx.ok(req, data);
  });

  route(app, api.kline, async (req) => {
    const period = req.query.period ?? DEFAULT_PERIOD;
    const inst = instrumentOf(req.query.forex_id);
    const candles = readCandles(db, inst.id, period, KLINE_LIMIT);
    // The in-memory forming candle may be newer than the stored one.
    const live = book.last(inst.id, period);
    if (live) {
      const last = candles[candles.length - 1];
      if (last && last.time === live.time) candles[candles.length - 1] = { ...live };
      else if (!last || live.time > last.time) {
        candles.push({ ...live });
        if (candles.length > KLINE_LIMIT) candles.shift();
      }
    }
    const data = candles.map((c) => ({
      Time: c.time,
      Open: c.open,
      High: c.high,
      Low: c.low,
      Close: c.close,
      Volume: round2(c.volume),
    }));
    return ctx.ok(req, data);
  });

  route(app, api.abbreviatedCacheKline, async (req) => {
    const period = req.query.period ?? DEFAULT_SPARKLINE_PERIOD;
    const parts = req.query.forex_id ?? [];
    const insts = parts.length === 0 ? loadInstruments(db) : parts.map((p) => instrumentOf(p));
    const now = Date.now();
    const data = insts.map((inst) => {
      // One stored candle more than the points: the forming one may be among the stored rows.
      const rows = newestCloses(db, {
        instrumentId: inst.id,
        period,
        limit: SPARKLINE_POINTS + 1,
      });
      const held = book.held(inst.id, period);
      const points = sparklinePoints(rows, held, period, now, SPARKLINE_POINTS);
      return { forex_id: inst.id, period, points };
    });
    return ctx.ok(req, data);
  });

  // ---- logos ---------------------------------------------------------------------------------------
  const logos = new Map<string, Buffer>();
  if (fs.existsSync(LOGO_DIR)) {
    for (const f of fs.readdirSync(LOGO_DIR))
      if (/^[A-Za-z0-9_-]+\.svg$/.test(f)) logos.set(f, fs.readFileSync(path.join(LOGO_DIR, f)));
  }
  app.get<{ Params: { file: string } }>(
    "/static/logos/:file",
    {
      schema: {
        tags: ["market"],
        summary: "An instrument's logo (the Logo path of trade_list), image/svg+xml",
        ...fileAnswer("image/svg+xml"),
        params: z.object({ file: z.string().describe("{CODE}.svg, e.g. EURUSD.svg") }),
      },
    },
    async (req, reply) => {
      const body = logos.get(req.params.file);
      if (!body) {
        return reply.status(404).send({
          code: CODE_NOT_FOUND,
          msg: translate(req.lang, "market.logo_not_found"),
          data: null,
        });
      }
      reply
        .header("Content-Type", "image/svg+xml")
        .header("Cache-Control", "public, max-age=31536000, immutable")
        .header("X-Content-Type-Options", "nosniff")
        .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
      return reply.send(body);
    },
  );
}
