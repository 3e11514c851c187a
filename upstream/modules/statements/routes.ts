/**
 * Statement and statistics routes (upstream/API.md "Statements", "Statistics",
 * @contract/api/statements): a real account's statement for a range of days, its pages of ledger
 * rows and closed positions, the monthly statement e-mail asked for or stopped; the signed-in
 * account's own statistics. Reads of the store, served by any node; a range a statement cannot
 * cover is refused with HTTP 400 and its translated reason before anything is read.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/statements";
import type { AppContext } from "../../platform/context.js";
import { requireUser } from "../../platform/http/auth.js";
import { route } from "../../platform/http/route.js";
import { DomainError } from "../../platform/errors.js";
import { userById } from "../identity/store.js";
import { ownStatsOf, rangeOf, statementOf, statementPositions, statementRows } from "./service.js";
import { dropMailPref, lastSentMonth, mailPrefOf, saveMailPref } from "./store.js";
import type { DB } from "../../platform/db.js";

/** Whether the monthly statement is asked for, whether it can reach anyone, the last one sent. */
function mailSettingsOf(db: DB, userId: number): api.StatementMail {
  return {
    monthly: mailPrefOf(db, userId) !== undefined,
    has_email: Boolean(userById(db, userId)?.email),
    last_month: lastSentMonth(db, userId) ?? "",
  };
}

export function registerStatementRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;

  route(app, api.statement, async (req) => {
    const me = requireUser(db, req);
    const range = rangeOf(req.query.from, req.query.to);
    return ctx.ok(req, statementOf(db, me.id, range));
  });

  route(app, api.statementLedger, async (req) => {
    const me = requireUser(db, req);
    const q = req.query;
    const range = rangeOf(q.from, q.to);
    return ctx.ok(req, statementRows(db, req.lang, me.id, range, { page: q.page, size: q.size }));
  });

  route(app, api.statementPositions, async (req) => {
    const me = requireUser(db, req);
    const q = req.query;
    const range = rangeOf(q.from, q.to);
    return ctx.ok(req, statementPositions(db, me.id, range, { page: q.page, size: q.size }));
  });

  route(app, api.statementMail, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, mailSettingsOf(db, me.id));
  });

  route(app, api.statementMailSave, async (req) => {
    const me = requireUser(db, req);
    const monthly = req.body.monthly === true;
    if (monthly && !userById(db, me.id)?.email)
      throw new DomainError("statements.mail_needs_email");
    if (monthly) saveMailPref(db, { userId: me.id, lang: req.lang, at: Date.now() });
    else dropMailPref(db, me.id);
    return ctx.ok(
      req,
      mailSettingsOf(db, me.id),
      monthly ? "statements.mail_on" : "statements.mail_off",
    );
  });

  route(app, api.ownStats, async (req) => {
    const me = requireUser(db, req);
    return ctx.ok(req, ownStatsOf(db, me, Date.now()));
  });
}
