/**
 * The four-eyes requests of the operator API (requests.ts): what each kind of request does once a
 * second operator approves it, and the answer of an action filed for approval.
 */
import type { z } from "zod";
import * as api from "@contract/api/admin";
import type { Envelope } from "@contract/envelope";
import type { AppContext } from "../../../platform/context.js";
import { CODE, CODE_FAIL, DomainError } from "../../../platform/errors.js";
import type { OperatorCaller } from "../../../platform/http/operator-guard.js";
import { translate, type Lang } from "../../../platform/i18n.js";
import {
  addToCatalog,
  type AnyCatalog,
  type CatalogPayload,
  catalogEntry,
  sameEntry,
  CHARGE_CHANNELS,
  DRAW_CURRENCIES,
  updateCatalog,
  WIRE_ACCOUNTS,
} from "../catalog.js";
import { Requests, type Executor, type NewRequest } from "../requests.js";
import { describeSetting } from "../settings-registry.js";
import { applySetting, approveDeposit, approveWithdrawal, bookAdjustment } from "./actions.js";
import { INVALID } from "./shared.js";
import { resetTwoFactorBySupport } from "../../identity/security-routes.js";
import { chargeView, drawView, requestView } from "./views.js";

/** The money catalogue's three parts, each with the schemas of its add and of its change. */
const CATALOGS: { cat: AnyCatalog; add: z.ZodTypeAny; update: z.ZodTypeAny }[] = [
  { cat: CHARGE_CHANNELS, add: api.addChargeChannel.body, update: api.updateChargeChannel.body },
  { cat: WIRE_ACCOUNTS, add: api.addWireAccount.body, update: api.updateWireAccount.body },
  { cat: DRAW_CURRENCIES, add: api.addDrawCurrency.body, update: api.updateDrawCurrency.body },
];

function catalogPart(noun: string) {
  const part = CATALOGS.find((c) => c.cat.noun === noun);
  if (!part) throw new Error(`unknown catalogue ${noun}`);
  return part;
}

/**
 * A filed catalogue change's fields as its endpoint's schema reads them: read again when approved,
 * so a request filed before a rule changed takes effect only as today's rule reads it.
 */
function filedFields(schema: z.ZodTypeAny, body: unknown): Record<string, unknown> {
  const read = schema.safeParse(body);
  if (read.success) return read.data as Record<string, unknown>;
  const field = String(read.error.issues[0]?.path[0] ?? "input");
  throw new DomainError(INVALID, CODE_FAIL, { field });
}

/** What each kind of request carries out when approved, as the approver. */
function executors(ctx: AppContext): Record<api.RequestKind, Executor> {
  const { db } = ctx;
  return {
    catalog: (r, by) => {
      const p = r.payload as unknown as CatalogPayload;
      const part = catalogPart(p.noun);
      if (p.id === null) return addToCatalog(db, part.cat, filedFields(part.add, p.body), by.actor);
      // The change applies to the entry as it stood when filed; anything changed since (another
      // approved change, a hide) refuses it rather than being undone.
      const now = catalogEntry(db, part.cat, p.id);
      if (now && (!p.atFiling || !sameEntry(now, p.atFiling)))
        throw new DomainError("catalog_changed_since");
      return updateCatalog(db, part.cat, p.id, filedFields(part.update, p.body), by.actor);
    },
    setting: (r, by) => {
      const p = r.payload as { key: string; value: string };
      applySetting(ctx, by, p.key, p.value);
      return { key: p.key, value: p.value, describe: describeSetting("en", p.key) };
    },
    adjustment: (r, by) =>
      bookAdjustment(
        ctx,
        by,
        r.payload as { userId: number; amountMicro: number; remark: string },
        r.id,
      ),
    "charge.approve": (r, by) => {
      const p = r.payload as { id: number; received: number | null };
      approveDeposit(ctx, by, p.id, p.received, r.id);
      return chargeView(ctx, p.id);
    },
    "draw.approve": (r, by) => {
      const { id } = r.payload as { id: number };
      approveWithdrawal(ctx, by, id, r.id);
      return drawView(ctx, id);
    },
    "two_factor.reset": (r, by) => {
      const { userId } = r.payload as { userId: number };
      return resetTwoFactorBySupport(ctx, {
        userId,
        actor: by.actor,
        requestId: r.id,
        note: r.note,
      });
    },
  };
}

/** The four-eyes requests of this store, each kind carried out as above when approved. */
export const requestsOf = (ctx: AppContext) => new Requests(ctx.db, executors(ctx));

/** The answer of an action filed for a second operator: nothing changed yet. */
export function pending(
  ctx: AppContext,
  requests: Requests,
  req: { lang: Lang },
  op: OperatorCaller,
  n: NewRequest,
): Envelope {
  const filed = requests.create(n, op);
  return {
    code: CODE.OK,
    msg: translate(req.lang, "request_pending", { id: filed.id }),
    data: { pending_request: requestView(ctx, filed) } satisfies api.PendingApproval,
  };
}
