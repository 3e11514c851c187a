/**
 * Money API of the reference upstream (upstream/API.md "Money"): withdrawal currencies, the wallet's
 * destinations, withdrawals and the ledger. Each route is the contract's endpoint
 * (@contract/api/finance): it reads the raw fields, calls the services (withdrawals.ts,
 * draw-methods.ts) and maps their answers to the wire shapes. Demo accounts are refused.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import * as api from "@contract/api/finance";
import { LANG_TAG, PAGE_SIZE, PRECISION } from "@contract/constants";
import { CHANNEL_TYPE, DRAW_TYPE } from "@contract/enums";
import type { AppContext } from "../../platform/context.js";
import { requireUser, type UserRow } from "../../platform/http/auth.js";
import { CODE_FAIL, DomainError } from "../../platform/errors.js";
import { translate, type Lang } from "../../platform/i18n.js";
import { idempotencyKeyOf } from "../../platform/http/params.js";
import { intField, pageField } from "../../platform/params.js";
import { route } from "../../platform/http/route.js";
import { wireTime } from "../../platform/wire.js";
import { inMoneyRange, MICRO, parseDecimal, toMicro } from "./decimal.js";
import { ledgerPage } from "./ledger.js";
import { DrawMethods, type BindRequest, type DrawMethod } from "./draw-methods.js";
import type { DrawCurrency, DrawRecord } from "./withdrawals.js";
import type { ChargeRecord } from "./deposits.js";
import { UPLOAD_PATH } from "@contract/api/common";

/** A malformed field of these routes answers "Invalid value: FIELD". */
const INVALID = "money_invalid_field";
const extras = { invalidFieldKey: INVALID };

/** Decimal places a USD amount may have when a user enters it (the balance's precision). */
const AMOUNT_DP = PRECISION.balance;

const usd = (micro: number) => micro / MICRO;

function realUser(ctx: AppContext, req: FastifyRequest): UserRow {
  const u = requireUser(ctx.db, req);
  if (u.is_demo) throw new DomainError("demo_only_true_account");
  return u;
}

const int = (raw: unknown, field: string, dflt?: number) => intField(raw, field, INVALID, dflt);

function drawType(raw: unknown, field: string): number {
  const t = int(raw, field, DRAW_TYPE.ADDRESS);
  if (t !== DRAW_TYPE.ADDRESS && t !== DRAW_TYPE.BANK)
    throw new DomainError(INVALID, CODE_FAIL, { field });
  return t;
}

const page = (raw: unknown) => pageField(raw, INVALID);

const currencyView = (c: DrawCurrency): api.DrawCurrency => ({
  id: c.id,
  type: c.type,
  code: c.code,
  protocol: c.protocol,
  draw_rate: Number(c.drawRate),
  fee_type: c.feeType,
  usd_price: Number(c.usdPrice),
  min: usd(c.minMicro),
  max: usd(c.maxMicro),
});

const methodView = (m: DrawMethod): api.DrawMethod => ({
  id: m.id,
  type: m.type,
  dc_address: m.dcAddress,
  bank_name: m.bankName,
  bank_address: m.bankAddress,
  bank_swift: m.bankSwift,
  payee_name: m.payeeName,
  payee_account: m.payeeAccount,
  remark: m.remark,
  draw_currency: { id: m.drawCurrencyId, code: m.currencyCode, protocol: m.protocol },
});

const drawView = (lang: Lang, d: DrawRecord): api.DrawRecord => ({
  id: d.id,
  number: usd(d.amountMicro),
  real_number: d.net,
  fee: usd(d.feeMicro),
  draw_currency: { id: d.currency.id, code: d.currency.code, protocol: d.currency.protocol },
  status: d.status,
  status_name: translate(lang, `withdraw_status_${d.status}`),
  remark: d.remark,
  created_at: wireTime(d.createdAt),
  type: d.type,
  address: d.address,
  payee_account: d.payeeAccount,
  notes: d.memo,
});

/** A ledger row's time in the reader's language (UTC). */
function ledgerTime(lang: Lang, ms: number): string {
  return new Intl.DateTimeFormat(LANG_TAG[lang], {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(ms);
}

const chargeView = (lang: Lang, c: ChargeRecord): api.ChargeRecord => ({
  id: c.id,
  number: usd(c.amountMicro),
  credited: c.creditedMicro === null ? null : usd(c.creditedMicro),
  type: c.type,
  currency_code: c.currencyCode,
  status: c.status,
  status_name: translate(lang, `charge_status_${c.status}`),
  remark: c.remark,
  created_at: wireTime(c.createdAt),
});

/** A proof names an upload by its name, or by the path image_upload answered. */
function proofName(raw: unknown): string {
  const v = typeof raw === "string" ? raw.trim() : "";
  return v.startsWith(UPLOAD_PATH) ? v.slice(UPLOAD_PATH.length) : v;
}

/** A deposit's amount: USD with at most 2 decimals. */
function depositAmount(raw: unknown): number {
  const amount = parseDecimal(raw, AMOUNT_DP);
  if (amount === null) throw new DomainError("deposit_amount_positive");
  if (!inMoneyRange(amount)) throw new DomainError(INVALID, CODE_FAIL, { field: "number" });
  return toMicro(amount);
}

function bindRequest(body: Record<string, unknown>): BindRequest {
  const type = drawType(body.type, "type");
  const drawCurrencyId = int(body.draw_id, "draw_id");
  const s = (k: string) => (typeof body[k] === "string" ? (body[k] as string) : "");
  if (type === DRAW_TYPE.ADDRESS)
    return { type: DRAW_TYPE.ADDRESS, drawCurrencyId, address: s("dc_address") };
  return {
    type: DRAW_TYPE.BANK,
    drawCurrencyId,
    bankName: s("bank_name"),
    bankAddress: s("bank_address"),
    bankSwift: s("bank_swift"),
    payeeName: s("payee_name"),
    payeeAccount: s("payee_account"),
    remark: s("remark") || null,
  };
}

export function registerMoneyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const methods = new DrawMethods(ctx.db);
  const { deposits, withdrawals } = ctx;
  const idemKey = (req: FastifyRequest, body: Record<string, unknown>) =>
    idempotencyKeyOf(req, body, INVALID);

  route(
    app,
    api.quickChargeInfo,
    async (req) => {
      realUser(ctx, req);
      const { minMicro, maxMicro } = deposits.bounds();
      return ctx.ok(req, {
        channels: deposits.channels().map((c) => ({
          id: c.id,
          currency_code: c.currencyCode,
          protocol_code: c.protocolCode,
          address: c.address,
          usd_price: Number(c.usdPrice),
        })),
        min: usd(minMicro),
        max: usd(maxMicro),
      });
    },
    extras,
  );

  route(
    app,
    api.quickChargeSymbols,
    async (req) => {
      realUser(ctx, req);
      return ctx.ok(req, [...new Set(deposits.channels().map((c) => c.currencyCode))]);
    },
    extras,
  );

  route(
    app,
    api.quickChargeSubmit,
    async (req) => {
      const u = realUser(ctx, req);
      const c = deposits.submit(
        u.id,
        {
          type: CHANNEL_TYPE.COIN,
          channelId: int(req.body.charge_id, "charge_id"),
          amountMicro: depositAmount(req.body.number),
          proof: proofName(req.body.proofImg),
          address: typeof req.body.address === "string" ? req.body.address : null,
        },
        idemKey(req, req.body),
      );
      return ctx.ok(req, chargeView(req.lang, c), "deposit_submitted");
    },
    extras,
  );

  route(
    app,
    api.wireInfo,
    async (req) => {
      realUser(ctx, req);
      const coin = typeof req.query.bank_coin === "string" ? req.query.bank_coin.trim() : "";
      return ctx.ok(
        req,
        deposits.wireAccounts(coin || undefined).map((w) => ({
          id: w.id,
          bank_coin: w.bankCoin,
          bank_name: w.bankName,
          bank_address: w.bankAddress,
          bank_swift: w.bankSwift,
          payee_name: w.payeeName,
          payee_account: w.payeeAccount,
          bank_remark: w.bankRemark,
        })),
      );
    },
    extras,
  );

  route(
    app,
    api.wireSubmit,
    async (req) => {
      const u = realUser(ctx, req);
      const c = deposits.submit(
        u.id,
        {
          type: CHANNEL_TYPE.BANK,
          wireId: int(req.body.wire_id, "wire_id"),
          amountMicro: depositAmount(req.body.number),
          proof: proofName(req.body.proofImg),
        },
        idemKey(req, req.body),
      );
      return ctx.ok(req, chargeView(req.lang, c), "deposit_submitted");
    },
    extras,
  );

  route(
    app,
    api.quickList,
    async (req) => {
      const u = realUser(ctx, req);
      const type = int(req.query.type, "type", CHANNEL_TYPE.COIN);
      if (type !== CHANNEL_TYPE.COIN && type !== CHANNEL_TYPE.BANK)
        throw new DomainError(INVALID, CODE_FAIL, { field: "type" });
      const { items, total } = deposits.list(u.id, type, page(req.query.page), PAGE_SIZE);
      return ctx.ok(req, { data: items.map((c) => chargeView(req.lang, c)), total });
    },
    extras,
  );

  route(
    app,
    api.drawSymbolList,
    async (req) => {
      realUser(ctx, req);
      const type = drawType(req.query.type, "type");
      return ctx.ok(req, withdrawals.currencies(type).map(currencyView));
    },
    extras,
  );

  route(
    app,
    api.draw,
    async (req) => {
      const u = realUser(ctx, req);
      const amount = parseDecimal(req.body.number, AMOUNT_DP);
      if (amount === null) throw new DomainError("withdraw_amount_positive");
      if (!inMoneyRange(amount)) throw new DomainError(INVALID, CODE_FAIL, { field: "number" });
      const memo = typeof req.body.memo === "string" ? req.body.memo.trim().slice(0, 200) : "";
      const d = withdrawals.request(
        u.id,
        {
          drawCurrencyId: int(req.body.draw_currency_id, "draw_currency_id"),
          amountMicro: toMicro(amount),
          drawMethodId: int(req.body.draw_method_id, "draw_method_id"),
          memo: memo || null,
        },
        idemKey(req, req.body),
      );
      return ctx.ok(req, drawView(req.lang, d), "withdraw_requested");
    },
    extras,
  );

  route(
    app,
    api.drawCancel,
    async (req) => {
      const u = realUser(ctx, req);
      const d = withdrawals.cancel(u.id, int(req.body.id, "id"), idemKey(req, req.body));
      return ctx.ok(req, drawView(req.lang, d), "withdraw_cancelled");
    },
    extras,
  );

  route(
    app,
    api.drawList,
    async (req) => {
      const u = realUser(ctx, req);
      const { items, total } = withdrawals.list(
        u.id,
        drawType(req.query.type, "type"),
        page(req.query.page),
        PAGE_SIZE,
      );
      return ctx.ok(req, { data: items.map((d) => drawView(req.lang, d)), total });
    },
    extras,
  );

  route(
    app,
    api.getDrawMethod,
    async (req) => {
      const u = realUser(ctx, req);
      const type = drawType(req.query.draw_type, "draw_type");
      const currency =
        req.query.draw_id === undefined || req.query.draw_id === ""
          ? null
          : int(req.query.draw_id, "draw_id");
      const list = methods
        .list(u.id, type)
        .filter((m) => currency === null || m.drawCurrencyId === currency);
      return ctx.ok(req, list.map(methodView));
    },
    extras,
  );

  route(
    app,
    api.bindDrawMethod,
    async (req) => {
      const u = realUser(ctx, req);
      return ctx.ok(req, methodView(methods.bind(u.id, bindRequest(req.body))), "wallet_bound");
    },
    extras,
  );

  route(
    app,
    api.delDrawMethod,
    async (req) => {
      const u = realUser(ctx, req);
      methods.remove(u.id, int(req.body.id, "id"));
      return ctx.ok(req, null, "wallet_deleted");
    },
    extras,
  );

  route(
    app,
    api.forexChange,
    async (req) => {
      const u = realUser(ctx, req);
      const { items, total } = ledgerPage(ctx.db, u.id, page(req.query.page), PAGE_SIZE);
      return ctx.ok(req, {
        data: items.map((r) => ({
          id: r.id,
          Value: usd(r.amountMicro),
          Balance: usd(r.balanceAfterMicro),
          MemoTran: translate(req.lang, `ledger_kind_${r.kind}`),
          CreatedAtTran: ledgerTime(req.lang, r.createdAt),
          Kind: r.kind,
        })),
        total,
      });
    },
    extras,
  );
}
