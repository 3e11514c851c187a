/**
 * Development helpers, registered only while DEV_OUTBOX is on (the default exactly while no SMTP_URL
 * is set): the latest verification code sent to an address, and the answer of a captcha, so that a
 * person or a test can finish sign-up with no mail server. Absent (404) otherwise.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/dev";
import { route } from "../../platform/http/route.js";
import { z } from "zod";
import type { AppContext } from "../../app.js";
import { DomainError, CODE_NOT_FOUND } from "../../platform/errors.js";
import { fieldsOf, parseFields, required } from "../../platform/http/fields.js";
import { latestOutboxCode } from "../../platform/mail/outbox.js";
import { captchaAnswer } from "../identity/captcha.js";

export function registerDevRoutes(app: FastifyInstance, ctx: AppContext): void {
  if (!ctx.config.devOutbox) return;
  const { db } = ctx;

  route(app, api.outbox, async (req) => {
    const f = parseFields(z.object({ to: required() }), fieldsOf(req));
    const row = latestOutboxCode(db, f.to);
    if (!row) throw new DomainError("accounts.outbox_empty", CODE_NOT_FOUND);
    return ctx.ok(req, row);
  });

  route(app, api.captchaAnswer, async (req) => {
    const f = parseFields(z.object({ id: required() }), fieldsOf(req));
    const text = captchaAnswer(db, f.id);
    if (!text) throw new DomainError("accounts.captcha_invalid", CODE_NOT_FOUND);
    return ctx.ok(req, { id: f.id, text });
  });
}
