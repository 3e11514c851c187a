/**
 * The settings operators may change (GET/POST /admin/api/settings, settings-registry.ts); a
 * four-eyes setting waits for a second operator.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import type { AppContext } from "../../../platform/context.js";
import { operatorOf } from "../../../platform/http/operator-guard.js";
import { route } from "../../../platform/http/route.js";
import { getSetting } from "../../../platform/settings.js";
import { describeSetting, SETTINGS } from "../settings-registry.js";
import { applySetting, checkSetting, settingEntry } from "./actions.js";
import { pending, requestsOf } from "./four-eyes.js";
import { extras } from "./shared.js";

export function registerSettingRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  const requests = requestsOf(ctx);

  route(
    app,
    api.settings,
    async (req) => {
      return ctx.ok(
        req,
        Object.keys(SETTINGS).map((key) => ({
          key,
          value: getSetting(db, key) ?? null,
          describe: describeSetting(req.lang, key),
        })),
      );
    },
    extras,
  );

  route(
    app,
    api.setSetting,
    async (req) => {
      const op = operatorOf(req);
      const { key, value } = req.body;
      if (settingEntry(key).fourEyes) {
        // Checked now, so the approver sees a value that can take effect; checked again then.
        checkSetting(ctx, key, value);
        return pending(ctx, requests, req, op, {
          kind: "setting",
          permission: "admin",
          target: `setting:${key}`,
          payload: { key, value },
          summary: `${getSetting(db, key) ?? "(unset)"} -> ${value}`,
        });
      }
      applySetting(ctx, op, key, value);
      return ctx.ok(req, { key, value, describe: describeSetting(req.lang, key) });
    },
    extras,
  );
}
