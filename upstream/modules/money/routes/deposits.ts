/**
 * Deposits (upstream/API.md "Money"): the coin channels and wire accounts to send money to, a
 * deposit declared with its proof (coin or wire), and the history of a type. The Deposits service
 * (ctx.deposits) decides; these routes read the fields and shape the answers.
 */
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import * as api from "@contract/api/finance";
import { UPLOAD_PATH } from "@contract/api/common";
import type { EndpointDef } from "@contract/api/endpoint";
import { PAGE_SIZE } from "@contract/constants";
import { CHANNEL_TYPE } from "@contract/enums";
import type { AppContext } from "../../../platform/context.js";
import { route, type RouteRequest } from "../../../platform/http/route.js";
import { translate, type Lang } from "../../../platform/i18n.js";
import { wireTime } from "../../../platform/wire.js";
import type { ChargeChannel, ChargeRecord, ChargeRequest, WireAccount } from "../deposits.js";
import { amountMicro, extras, idemKey, realUser, usd } from "./shared.js";

const channelView = (c: ChargeChannel): api.ChargeChannel => ({
  id: c.id,
  currency_code: c.currencyCode,
  protocol_code: c.protocolCode,
  address: c.address,
  usd_price: Number(c.usdPrice),
});

const wireView = (w: WireAccount): api.WireAccount => ({
  id: w.id,
  bank_coin: w.bankCoin,
  bank_name: w.bankName,
  bank_address: w.bankAddress,
  bank_swift: w.bankSwift,
  payee_name: w.payeeName,
  payee_account: w.payeeAccount,
  bank_remark: w.bankRemark,
});

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
const proofName = (v: string): string =>
  v.startsWith(UPLOAD_PATH) ? v.slice(UPLOAD_PATH.length) : v;

/** A coin deposit's fields: the channel, the amount (USD), the proof, the address it went to. */
const coinDeposit = (body: z.output<typeof api.quickChargeSubmit.body>): ChargeRequest => ({
  type: CHANNEL_TYPE.COIN,
  channelId: body.charge_id,
  amountMicro: amountMicro(body.number),
  proof: proofName(body.proofImg),
  address: body.address ?? null,
});

/** A wire deposit's fields: the wire account, the amount (USD), the proof. */
const wireDeposit = (body: z.output<typeof api.wireSubmit.body>): ChargeRequest => ({
  type: CHANNEL_TYPE.BANK,
  wireId: body.wire_id,
  amountMicro: amountMicro(body.number),
  proof: proofName(body.proofImg),
});

export function registerDepositRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { deposits } = ctx;
  /** A deposit declared by the fields `read` takes from the body; nothing is credited yet. */
  const declare = <D extends EndpointDef>(
    def: D,
    read: (body: RouteRequest<D>["body"]) => ChargeRequest,
  ) =>
    route(
      app,
      def,
      async (req) => {
        const u = realUser(ctx, req);
        const c = deposits.submit(u.id, read(req.body), idemKey(req, req.body));
        return ctx.ok(req, chargeView(req.lang, c), "deposit_submitted");
      },
      extras,
    );

  route(
    app,
    api.quickChargeInfo,
    async (req) => {
      realUser(ctx, req);
      const { minMicro, maxMicro } = deposits.bounds();
      const channels = deposits.channels().map(channelView);
      return ctx.ok(req, { channels, min: usd(minMicro), max: usd(maxMicro) });
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
  declare(api.quickChargeSubmit, coinDeposit);
  route(
    app,
    api.wireInfo,
    async (req) => {
      realUser(ctx, req);
      return ctx.ok(req, deposits.wireAccounts(req.query.bank_coin || undefined).map(wireView));
    },
    extras,
  );
  declare(api.wireSubmit, wireDeposit);
  route(
    app,
    api.quickList,
    async (req) => {
      const u = realUser(ctx, req);
      const { type, page } = req.query;
      const { items, total } = deposits.list(u.id, type, page, PAGE_SIZE);
      return ctx.ok(req, { data: items.map((c) => chargeView(req.lang, c)), total });
    },
    extras,
  );
}
