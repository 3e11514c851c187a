/**
 * The money catalogue (catalog.ts): coin deposit channels, bank accounts for wire deposits and
 * withdrawal currencies; list, add and change, the same for each of the three parts.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import type { AppContext } from "../../../platform/context.js";
import { operatorOf } from "../../../platform/http/operator-guard.js";
import { route } from "../../../platform/http/route.js";
import {
  type AnyCatalog,
  catalogEntry,
  CHARGE_CHANNELS,
  DRAW_CURRENCIES,
  listCatalog,
  previewCatalog,
  updateCatalog,
  WIRE_ACCOUNTS,
} from "../catalog.js";
import type { Requests } from "../requests.js";
import { pending, requestsOf } from "./four-eyes.js";
import { extras } from "./shared.js";

/** The fields a catalogue keeps, as their schema read them (absent ones left out). */
function catalogBody(cat: AnyCatalog, body: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const f of cat.fields) if (body[f.name] !== undefined) kept[f.name] = body[f.name];
  return kept;
}

/** The fields of a posted change whose columns it changes (the console posts every field). */
function changedBody(
  cat: AnyCatalog,
  body: Record<string, unknown>,
  columns: Set<string>,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const f of cat.fields)
    if (body[f.name] !== undefined && columns.has(f.column ?? f.name)) kept[f.name] = body[f.name];
  return kept;
}

/** One part's endpoints: its list, its add and its change. */
type CatalogEndpoints = readonly [
  AnyCatalog,
  typeof api.chargeChannels | typeof api.wireAccounts | typeof api.drawCurrencies,
  typeof api.addChargeChannel | typeof api.addWireAccount | typeof api.addDrawCurrency,
  typeof api.updateChargeChannel | typeof api.updateWireAccount | typeof api.updateDrawCurrency,
];

const PARTS: readonly CatalogEndpoints[] = [
  [CHARGE_CHANNELS, api.chargeChannels, api.addChargeChannel, api.updateChargeChannel],
  [WIRE_ACCOUNTS, api.wireAccounts, api.addWireAccount, api.updateWireAccount],
  [DRAW_CURRENCIES, api.drawCurrencies, api.addDrawCurrency, api.updateDrawCurrency],
];

function registerCatalogPart(
  app: FastifyInstance,
  ctx: AppContext,
  requests: Requests,
  [cat, list, add, update]: CatalogEndpoints,
): void {
  const { db } = ctx;
  route(app, list, async (req) => ctx.ok(req, listCatalog(db, cat)), extras);
  route(
    app,
    add,
    async (req) => {
      const op = operatorOf(req);
      // A new place to send money (or to pay out from): always a second operator's decision.
      const { diff } = previewCatalog(db, cat, null, req.body);
      return pending(ctx, requests, req, op, {
        kind: "catalog",
        permission: "admin",
        target: `${cat.noun}:new`,
        payload: { noun: cat.noun, id: null, body: catalogBody(cat, req.body) },
        summary: diff,
      });
    },
    extras,
  );
  route(
    app,
    update,
    async (req) => {
      const op = operatorOf(req);
      const { id } = req.params;
      const { columns, diff, after } = previewCatalog(db, cat, id, req.body);
      // Hiding an entry or reordering takes effect at once; any other change waits for a second
      // operator (an address, a network, a bank account, a rate, showing an entry again).
      const immediate = columns.every((c) => c === "sort" || (c === "enabled" && !after[c]));
      if (!immediate)
        return pending(ctx, requests, req, op, {
          kind: "catalog",
          permission: "admin",
          target: `${cat.noun}:${id}`,
          // Only the fields this change sets, and the entry as it stood when filed: an approval
          // applies them to that state only, never over a later change (four-eyes.ts).
          payload: {
            noun: cat.noun,
            id,
            body: changedBody(cat, req.body, new Set(columns)),
            atFiling: catalogEntry(db, cat, id),
          },
          summary: diff,
        });
      return ctx.ok(req, updateCatalog(db, cat, id, req.body, op.actor));
    },
    extras,
  );
}

export function registerCatalogRoutes(app: FastifyInstance, ctx: AppContext): void {
  const requests = requestsOf(ctx);
  for (const part of PARTS) registerCatalogPart(app, ctx, requests, part);
}
