/**
 * Chart routes (upstream/API.md "Chart", @contract/api/chart): a signed-in user's chart choice,
 * read from the store by any node and saved by the leader (a standby forwards the POST). The
 * choice is kept as its flat fields (contract/api/chart-rules.ts) and read back forgivingly.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/chart";
import {
  DEFAULT_CHART_SETTINGS,
  fieldsOfSettings,
  settingsFromFields,
  type ChartSettings,
} from "@contract/api/chart-rules";
import type { AppContext } from "../../platform/context.js";
import type { DB } from "../../platform/db.js";
import { requireUser } from "../../platform/http/auth.js";
import { route } from "../../platform/http/route.js";
import { DomainError } from "../../platform/errors.js";
import { CODE } from "@contract/envelope";
import { chartFieldsOf, writeChartFields } from "./store.js";

/** A user's chart choice: the saved one, or the defaults. */
export function chartSettingsOf(db: DB, userId: number): ChartSettings {
  const fields = chartFieldsOf(db, userId);
  if (fields === null) return DEFAULT_CHART_SETTINGS;
  const q = new URLSearchParams(fields);
  return settingsFromFields((name) => q.get(name));
}

export function registerChartRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  now: () => number = Date.now,
): void {
  const { db } = ctx;

  route(app, api.chartSettingsGet, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, chartSettingsOf(db, me.id));
  });

  route(app, api.chartSettingsSave, async (req) => {
    const me = requireUser(db, req);
    const body = req.body as Record<string, unknown>;
    if (api.macdRefusal(body)) throw new DomainError("chart.macd_order", CODE.FAIL, {}, 400);
    const settings = api.settingsOfFields(body);
    const fields = new URLSearchParams(fieldsOfSettings(settings)).toString();
    db.transaction(() => writeChartFields(db, { userId: me.id, fields, at: now() }))();
    return ctx.ok(req, settings, "chart.saved");
  });
}
