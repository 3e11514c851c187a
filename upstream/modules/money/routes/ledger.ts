/**
 * The account's ledger (upstream/API.md "Money"): one page of its rows, newest first, each with
 * the balance after it, its kind in the reader's language and its time.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/finance";
import { LANG_TAG, PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../../platform/context.js";
import { route } from "../../../platform/http/route.js";
import { translate, type Lang } from "../../../platform/i18n.js";
import { ledgerPage, type LedgerEntry } from "../ledger.js";
import { extras, realUser, usd } from "./shared.js";

/** A ledger row's time in the reader's language (UTC). */
function ledgerTime(lang: Lang, ms: number): string {
  return new Intl.DateTimeFormat(LANG_TAG[lang], {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(ms);
}

const entryView = (lang: Lang, r: LedgerEntry): api.LedgerItem => ({
  id: r.id,
  Value: usd(r.amountMicro),
  Balance: usd(r.balanceAfterMicro),
  MemoTran: translate(lang, `ledger_kind_${r.kind}`),
  CreatedAtTran: ledgerTime(lang, r.createdAt),
  Kind: r.kind,
});

export function registerLedgerRoutes(app: FastifyInstance, ctx: AppContext): void {
  route(
    app,
    api.forexChange,
    async (req) => {
      const u = realUser(ctx, req);
      const { items, total } = ledgerPage(ctx.db, u.id, req.query.page, PAGE_SIZE);
      return ctx.ok(req, { data: items.map((r) => entryView(req.lang, r)), total });
    },
    extras,
  );
}
