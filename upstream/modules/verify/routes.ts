/**
 * Verification API (upstream/API.md "Verification"): user_real/real_name and user_real/center for a
 * real account, and the operators' queue under /admin/api/real_names. Each decision and its audit
 * row commit in one transaction.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import * as api from "@contract/api/verify";
import { PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../platform/context.js";
import { requireUser } from "../../platform/http/auth.js";
import type { SessionUser } from "../../platform/session-cache.js";
import { DomainError } from "../../platform/errors.js";
import { route } from "../../platform/http/route.js";
import { wireTime } from "../../platform/wire.js";
import { writeAudit } from "../operators/audit.js";
import { operatorOf } from "../../platform/http/operator-guard.js";
import { maskCardId, RealNames, type RealNameRequest } from "./service.js";
import { requesterOf } from "./store.js";

const INVALID = "money_invalid_field";
const extras = { invalidFieldKey: INVALID };
const ADMIN_UPLOADS = "/admin/api/uploads/";

function realUser(ctx: AppContext, req: FastifyRequest): SessionUser {
  const u = requireUser(ctx.db, req);
  if (u.is_demo) throw new DomainError("demo_only_true_account");
  return u;
}

export function registerVerifyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.db;
  const names = new RealNames(db);

  const centerView = (userId: number): api.RealNameCenter => {
    const { reviewStatus, latest } = names.center(userId);
    return {
      review_status: reviewStatus,
      name: latest?.name ?? null,
      card_id: latest ? maskCardId(latest.cardId) : null,
      remark: latest?.status === api.REAL_NAME_REQUEST.REJECTED ? latest.remark : null,
      submitted_at: latest ? wireTime(latest.createdAt) : null,
      reviewed_at: latest?.decidedAt ? wireTime(latest.decidedAt) : null,
    };
  };

  const adminView = (r: RealNameRequest): api.AdminRealName => {
    const u = requesterOf(db, r.userId);
    return {
      id: r.id,
      user: { id: u.id, uid: u.uid, email: u.email, mobile: u.mobile },
      status: r.status,
      name: r.name,
      card_id: r.cardId,
      front_pic: r.frontPic,
      reverse_pic: r.reversePic,
      front_url: ADMIN_UPLOADS + r.frontPic,
      reverse_url: ADMIN_UPLOADS + r.reversePic,
      remark: r.remark,
      created_at: wireTime(r.createdAt),
      decided_at: r.decidedAt ? wireTime(r.decidedAt) : null,
      decided_by: r.decidedBy,
    };
  };

  route(
    app,
    api.realName,
    async (req) => {
      const u = realUser(ctx, req);
      names.submit(u.id, {
        name: req.body.name,
        cardId: req.body.card_id,
        frontPic: req.body.front_pic,
        reversePic: req.body.reverse_pic,
      });
      return ctx.ok(req, centerView(u.id), "verify.submitted");
    },
    extras,
  );

  route(
    app,
    api.realNameCenter,
    async (req) => {
      const u = realUser(ctx, req);
      return ctx.ok(req, centerView(u.id));
    },
    extras,
  );

  route(
    app,
    api.realNames,
    async (req) => {
      const { items, total } = names.page(req.query.review_status, req.query.page, PAGE_SIZE);
      return ctx.ok(req, { data: items.map(adminView), total });
    },
    extras,
  );

  const decide = (
    req: FastifyRequest<{ Params: { id: number } }>,
    action: "real_name.approve" | "real_name.reject",
    fn: (id: number, actor: string) => RealNameRequest,
  ): RealNameRequest => {
    const op = operatorOf(req);
    const { id } = req.params;
    return db.transaction(() => {
      const done = fn(id, op.actor);
      writeAudit(db, {
        actor: op.actor,
        action,
        target: `real_name:${id}`,
        userId: done.userId,
        remark: done.remark,
      });
      return done;
    })();
  };

  route(
    app,
    api.approveRealName,
    async (req) =>
      ctx.ok(req, adminView(decide(req, "real_name.approve", (id, by) => names.approve(id, by)))),
    extras,
  );

  route(
    app,
    api.rejectRealName,
    async (req) =>
      ctx.ok(
        req,
        adminView(
          decide(req, "real_name.reject", (id, by) => names.reject(id, by, req.body.remark)),
        ),
      ),
    extras,
  );
}
