/** Settings area: area codes, public settings and the basic site information. See upstream/API.md. */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/settings";
import { areaList } from "../identity/store.js";
import { DEFAULT_FEE_TYPE } from "@contract/enums";
import { route } from "../../platform/http/route.js";
import type { AppContext } from "../../platform/context.js";
import { DomainError } from "../../platform/errors.js";
import { getSetting } from "../../platform/settings.js";

/** Settings that GET /api/default/setting may reveal; everything else in the table stays private. */
export const PUBLIC_SETTINGS = new Set<string>(api.PUBLIC_SETTING_KEYS);

function asNumber(v: string | undefined, dflt: number): number {
  const n = Number(v);
  return v !== undefined && v.trim() !== "" && Number.isFinite(n) ? n : dflt;
}

export function registerSettingsRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  route(app, api.areaList, async (req) => ctx.ok(req, areaList(db)));

  route(app, api.setting, async (req) => {
    const { key } = req.query;
    if (!PUBLIC_SETTINGS.has(key)) throw new DomainError("accounts.setting_unknown", 0, { key });
    return ctx.ok(req, getSetting(db, key) ?? null);
  });

  route(app, api.getBasicInfo, async (req) =>
    ctx.ok(req, {
      service_link: getSetting(db, "service_link") ?? "",
      service_link_type: asNumber(getSetting(db, "service_link_type"), 1),
      verify_reg_type: asNumber(getSetting(db, "verify_reg_type"), 1),
      trade_fee_type: asNumber(getSetting(db, "trade_fee_type"), DEFAULT_FEE_TYPE),
    }),
  );
}
