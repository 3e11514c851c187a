/**
 * The operator API (upstream/API.md "Operators"): the deposit and withdrawal queues, adjustments,
 * user lookup, the audit log and proof images, under /admin/api/ only. A user's token never opens
 * it: only `Authorization: Bearer <OPERATOR_TOKEN>` does (operator accounts come later). Every
 * action and its audit row commit in one transaction.
 */
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import * as api from "@contract/api/admin";
import { PAGE_SIZE } from "@contract/constants";
import { CHARGE_STATUS } from "@contract/enums";
import type { AppContext } from "../../app.js";
import { CODE, CODE_FAIL, DomainError } from "../../platform/errors.js";
import { intField, pageField } from "../../platform/params.js";
import { route } from "../../platform/http/route.js";
import { translate } from "../../platform/i18n.js";
import { wireTime } from "../../platform/wire.js";
import { MICRO, parseDecimal, toMicro, dec } from "../money/decimal.js";
import { Deposits } from "../money/deposits.js";
import { moneyOf } from "../money/service.js";
import { ledgerPage } from "../money/ledger.js";
import { Withdrawals } from "../money/withdrawals.js";
import type { Uploads } from "../uploads/service.js";
import { auditPage, auditRecord, writeAudit } from "./audit.js";
import { Idempotency } from "../../platform/idempotency.js";
import { idempotencyKeyOf } from "../../platform/http/params.js";
import { SETTINGS, describeSetting } from "./settings-registry.js";
import { getSetting, setSetting as setStoredSetting } from "../../platform/settings.js";
import {
  addToCatalog,
  CHARGE_CHANNELS,
  DRAW_CURRENCIES,
  listCatalog,
  updateCatalog,
  WIRE_ACCOUNTS,
} from "./catalog.js";
import { revokeOperatorToken, signInOperator } from "./accounts.js";
import { bearerOf, guardOperator, operatorOf } from "./guard.js";
import { addressSubject } from "../../platform/limits.js";
import { secretKeyDir } from "../../platform/config.js";
import { loadSecretKey } from "../../platform/secret-box.js";

const INVALID = "money_invalid_field";
/** The largest adjustment one booking may make, USD (a larger figure is a typing error). */
const MAX_ADJUSTMENT_USD = 1_000_000_000;
const extras = { invalidFieldKey: INVALID };
const usd = (micro: number | null) => (micro === null ? null : micro / MICRO);

const int = (raw: unknown, field: string, dflt?: number) => intField(raw, field, INVALID, dflt);

function remarkOf(raw: unknown): string {
  const r = typeof raw === "string" ? raw.trim() : "";
  if (!r) throw new DomainError("remark_required");
  return r.slice(0, 500);
}

type UserRefRow = { user_id: number; uid: string; email: string | null; mobile: string | null };
const userRef = (r: UserRefRow): api.AdminUserRef => ({
  id: r.user_id,
  uid: r.uid,
  email: r.email,
  mobile: r.mobile,
});

export function registerOperatorRoutes(
  app: FastifyInstance,
  ctx: AppContext,
  uploads: Uploads,
): void {
  const db = ctx.db;
  const money = moneyOf(db);
  let key: Buffer | null = null;
  /** The key of the operators' sealed TOTP secrets, read (or made) at the first sign-in. */
  const secretKey = () =>
    (key ??= loadSecretKey(ctx.config.operatorSecretKey, secretKeyDir(ctx.config)));
  const deposits = new Deposits(db);
  const idem = new Idempotency(db);
  const withdrawals = new Withdrawals({
    db,
    freeMarginMicro: (userId) => ctx.engine!.accountValues(userId).freeMarginMicro,
  });

  const chargeView = (id: number): api.AdminCharge => {
    const r = db
      .prepare(
        "SELECT c.*, u.id AS user_id, u.uid, u.email, u.mobile FROM charges c JOIN users u ON u.id = c.user_id WHERE c.id = ?",
      )
      .get(id) as Record<string, unknown> & UserRefRow;
    return {
      id: r.id as number,
      user: userRef(r),
      type: r.type as number,
      currency_code: r.currency_code as string,
      address: r.address as string | null,
      number: usd(r.amount_micro as number)!,
      credited: usd(r.credited_micro as number | null),
      status: r.status as number,
      remark: r.remark as string | null,
      proof_url: `/admin/api/uploads/${r.proof as string}`,
      created_at: wireTime(r.created_at as number),
      decided_at: r.decided_at ? wireTime(r.decided_at as number) : null,
      decided_by: r.decided_by as string | null,
    };
  };

  const drawView = (id: number): api.AdminDraw => {
    const d = withdrawals.get(id)!;
    const r = db
      .prepare(
        "SELECT u.id AS user_id, u.uid, u.email, u.mobile, d.decided_by FROM draws d JOIN users u ON u.id = d.user_id WHERE d.id = ?",
      )
      .get(id) as UserRefRow & { decided_by: string | null };
    return {
      id: d.id,
      user: userRef(r),
      type: d.type,
      currency: { id: d.currency.id, code: d.currency.code, protocol: d.currency.protocol },
      number: usd(d.amountMicro)!,
      fee: usd(d.feeMicro)!,
      real_number: d.net,
      address: d.address,
      bank_name: d.bankName,
      payee_name: d.payeeName,
      payee_account: d.payeeAccount,
      notes: d.memo,
      status: d.status,
      remark: d.remark,
      created_at: wireTime(d.createdAt),
      decided_at: d.decidedAt ? wireTime(d.decidedAt) : null,
      decided_by: r.decided_by,
    };
  };

  /** Runs an action on a user's money with its audit row, in one transaction. */
  const audited = <T>(
    op: { actor: string },
    action: string,
    target: string,
    userId: number,
    fn: () => T,
    amountMicro: (result: T) => number | null,
    remark: string | null,
  ): T =>
    money.transaction(() => {
      const before = money.balances(userId)!;
      const result = fn();
      const after = money.balances(userId)!;
      writeAudit(db, {
        actor: op.actor,
        action,
        target,
        userId,
        amountMicro: amountMicro(result),
        balanceBeforeMicro: before.balanceMicro,
        balanceAfterMicro: after.balanceMicro,
        remark,
      });
      return result;
    });

  const queuePage = (table: "charges" | "draws", statusRaw: unknown, pageRaw: unknown) => {
    const status = int(statusRaw, "status", 0);
    if (status > 3) throw new DomainError(INVALID, CODE_FAIL, { field: "status" });
    const page = pageField(pageRaw, INVALID);
    const ids = db
      .prepare(`SELECT id FROM ${table} WHERE status = ? ORDER BY id LIMIT ? OFFSET ?`)
      .all(status, PAGE_SIZE, (page - 1) * PAGE_SIZE) as { id: number }[];
    const total = (
      db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE status = ?`).get(status) as { n: number }
    ).n;
    return { ids: ids.map((r) => r.id), total };
  };

  route(
    app,
    api.login,
    async (req) => {
      const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");
      const s = await signInOperator(ctx.db, ctx.limits, secretKey(), {
        name: str(req.body.name),
        password: typeof req.body.password === "string" ? req.body.password : "",
        code: str(req.body.code),
        ip: addressSubject(req.ip),
      });
      writeAudit(db, { actor: s.name, action: "operator.login", target: `operator:${s.name}` });
      return ctx.ok(req, {
        token: s.token,
        name: s.name,
        role: s.role,
        expires_at: wireTime(s.expiresAt),
      });
    },
    extras,
  );

  route(
    app,
    api.logout,
    async (req) => {
      const op = operatorOf(req);
      const token = bearerOf(req);
      if (token && op.actor !== "token") revokeOperatorToken(ctx.db, token);
      return ctx.ok(req, null);
    },
    extras,
  );

  route(
    app,
    api.charges,
    async (req) => {
      const { ids, total } = queuePage("charges", req.query.status, req.query.page);
      return ctx.ok(req, { data: ids.map(chargeView), total });
    },
    extras,
  );

  const chargeOwner = (id: number) => {
    const c = deposits.get(id);
    if (!c) throw new DomainError("not_found", CODE.NOT_FOUND, {}, 404);
    return c;
  };

  route(
    app,
    api.approveCharge,
    async (req) => {
      const op = operatorOf(req);
      const id = int(req.params.id, "id");
      const c = chargeOwner(id);
      let received: number | null = null;
      if (req.body.amount !== undefined && req.body.amount !== "") {
        const d = parseDecimal(req.body.amount, 6);
        if (d === null || d.lte(0)) throw new DomainError("deposit_amount_positive");
        received = toMicro(d);
      }
      const done = audited(
        op,
        "charge.approve",
        `charge:${id}`,
        c.userId,
        () => deposits.approve(id, op.actor, received),
        (r) => r.creditedMicro,
        received !== null && received !== c.amountMicro
          ? `received ${dec(received).div(MICRO).toFixed(2)} of ${dec(c.amountMicro).div(MICRO).toFixed(2)}`
          : null,
      );
      return ctx.ok(req, chargeView(done.id));
    },
    extras,
  );

  for (const [def, action, to] of [
    [api.rejectCharge, "charge.reject", CHARGE_STATUS.REJECTED],
    [api.invalidCharge, "charge.invalid", CHARGE_STATUS.INVALID],
  ] as const) {
    route(
      app,
      def,
      async (req) => {
        const op = operatorOf(req);
        const id = int(req.params.id, "id");
        const c = chargeOwner(id);
        const remark = remarkOf(req.body.remark);
        audited(
          op,
          action,
          `charge:${id}`,
          c.userId,
          () =>
            to === CHARGE_STATUS.REJECTED
              ? deposits.reject(id, op.actor, remark)
              : deposits.invalid(id, op.actor, remark),
          () => null,
          remark,
        );
        return ctx.ok(req, chargeView(id));
      },
      extras,
    );
  }

  route(
    app,
    api.draws,
    async (req) => {
      const { ids, total } = queuePage("draws", req.query.status, req.query.page);
      return ctx.ok(req, { data: ids.map(drawView), total });
    },
    extras,
  );

  const drawOwner = (id: number) => {
    const d = withdrawals.get(id);
    if (!d) throw new DomainError("not_found", CODE.NOT_FOUND, {}, 404);
    return d;
  };

  route(
    app,
    api.approveDraw,
    async (req) => {
      const op = operatorOf(req);
      const id = int(req.params.id, "id");
      const d = drawOwner(id);
      audited(
        op,
        "draw.approve",
        `draw:${id}`,
        d.userId,
        () => withdrawals.approve(id, op.actor),
        (r) => r.amountMicro,
        null,
      );
      return ctx.ok(req, drawView(id));
    },
    extras,
  );

  route(
    app,
    api.rejectDraw,
    async (req) => {
      const op = operatorOf(req);
      const id = int(req.params.id, "id");
      const d = drawOwner(id);
      const remark = remarkOf(req.body.remark);
      audited(
        op,
        "draw.reject",
        `draw:${id}`,
        d.userId,
        () => withdrawals.reject(id, op.actor, remark),
        (r) => r.amountMicro,
        remark,
      );
      return ctx.ok(req, drawView(id));
    },
    extras,
  );

  route(
    app,
    api.adjustments,
    async (req) => {
      const op = operatorOf(req);
      const uid = typeof req.body.uid === "string" ? req.body.uid.trim() : "";
      const user = db.prepare("SELECT id FROM users WHERE uid = ?").get(uid) as
        { id: number } | undefined;
      if (!user) throw new DomainError("not_found", CODE.NOT_FOUND, {}, 404);
      const raw =
        typeof req.body.amount === "string"
          ? req.body.amount.trim()
          : String(req.body.amount ?? "");
      const negative = raw.startsWith("-");
      const d = parseDecimal(negative ? raw.slice(1) : raw, 6);
      if (d === null || d.isZero()) throw new DomainError(INVALID, CODE_FAIL, { field: "amount" });
      if (d.gt(MAX_ADJUSTMENT_USD)) throw new DomainError(INVALID, CODE_FAIL, { field: "amount" });
      const amountMicro = (negative ? -1 : 1) * toMicro(d);
      const remark = remarkOf(req.body.remark);
      const key = idempotencyKeyOf(req, req.body, INVALID);
      // The same key again (a double click, a resubmitted form, a retried time-out) answers the
      // first booking's row and books nothing; with another body it is refused (422).
      const params = { actor: op.actor, uid, amountMicro, remark };
      const row = money.transaction(() => {
        const seen = idem.lookup<api.AuditRow>(user.id, key, "admin.adjustment", params);
        if (seen) return seen;
        const before = money.balances(user.id)!;
        // An adjustment never takes a balance below zero.
        money.post({
          userId: user.id,
          amountMicro,
          kind: "adjustment",
          memo: remark,
          ref: "adjustment",
          floorMicro: 0,
        });
        const after = money.balances(user.id)!;
        const id = writeAudit(db, {
          actor: op.actor,
          action: "adjustment",
          target: `user:${user.id}`,
          userId: user.id,
          amountMicro,
          balanceBeforeMicro: before.balanceMicro,
          balanceAfterMicro: after.balanceMicro,
          remark,
        });
        const view = auditView(auditRecord(db, id)!);
        idem.store(user.id, key, "admin.adjustment", params, view);
        return view;
      });
      return ctx.ok(req, row);
    },
    extras,
  );

  route(
    app,
    api.users,
    async (req) => {
      const q = typeof req.query.q === "string" ? req.query.q.trim() : "";
      const rows = (
        q
          ? db
              .prepare(
                "SELECT id, uid, email, mobile, is_demo, created_at FROM users WHERE uid = ? OR email = lower(?) OR mobile = ? ORDER BY id LIMIT 20",
              )
              .all(q, q, q.replace(/\D/g, ""))
          : db
              .prepare(
                "SELECT id, uid, email, mobile, is_demo, created_at FROM users ORDER BY id DESC LIMIT 20",
              )
              .all()
      ) as {
        id: number;
        uid: string;
        email: string | null;
        mobile: string | null;
        is_demo: number;
        created_at: number;
      }[];
      return ctx.ok(
        req,
        rows.map((u) => {
          const f = ctx.engine!.accountValues(u.id);
          return {
            id: u.id,
            uid: u.uid,
            email: u.email,
            mobile: u.mobile,
            is_demo: u.is_demo,
            created_at: wireTime(u.created_at),
            balance: f.balanceMicro / MICRO,
            lock_balance: f.lockMicro / MICRO,
            equity: f.equityMicro / MICRO,
            used_margin: f.usedMarginMicro / MICRO,
          } satisfies api.AdminUser;
        }),
      );
    },
    extras,
  );

  route(
    app,
    api.userLedger,
    async (req) => {
      const uid = typeof req.params.uid === "string" ? req.params.uid.trim() : "";
      const user = db.prepare("SELECT id FROM users WHERE uid = ?").get(uid) as
        { id: number } | undefined;
      if (!user) throw new DomainError("not_found", CODE.NOT_FOUND, {}, 404);
      const page = pageField(req.query.page, INVALID);
      const { items, total } = ledgerPage(db, user.id, page, PAGE_SIZE);
      return ctx.ok(req, {
        data: items.map((r) => ({
          id: r.id,
          amount: r.amountMicro / MICRO,
          balance_after: r.balanceAfterMicro / MICRO,
          kind: r.kind,
          kind_name: translate(req.lang, `ledger_kind_${r.kind}`),
          created_at: wireTime(r.createdAt),
        })),
        total,
      });
    },
    extras,
  );

  const auditView = (r: ReturnType<typeof auditPage>["items"][number]): api.AuditRow => ({
    id: r.id,
    actor: r.actor,
    action: r.action,
    target: r.target,
    user_id: r.userId,
    amount: usd(r.amountMicro),
    balance_before: usd(r.balanceBeforeMicro),
    balance_after: usd(r.balanceAfterMicro),
    remark: r.remark,
    created_at: wireTime(r.createdAt),
  });

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
      const key = typeof req.body.key === "string" ? req.body.key.trim() : "";
      const value = typeof req.body.value === "string" ? req.body.value.trim() : "";
      // Own keys only: "constructor" or "__proto__" must not reach the prototype.
      const entry = Object.hasOwn(SETTINGS, key) ? SETTINGS[key] : undefined;
      if (!entry) throw new DomainError("setting_unknown", CODE_FAIL, { key });
      const refused = entry.check(value, db);
      if (refused) throw new DomainError(refused.key, CODE_FAIL, { key, ...refused.params });
      const before = getSetting(db, key) ?? null;
      db.transaction(() => {
        setStoredSetting(db, key, value);
        writeAudit(db, {
          actor: op.actor,
          action: "setting",
          target: `setting:${key}`,
          remark: `${before ?? "(unset)"} -> ${value}`,
        });
      })();
      ctx.engine?.reloadSettings();
      return ctx.ok(req, { key, value, describe: describeSetting(req.lang, key) });
    },
    extras,
  );

  route(
    app,
    api.audit,
    async (req) => {
      const page = pageField(req.query.page, INVALID);
      const actor = typeof req.query.actor === "string" ? req.query.actor.trim() : "";
      const { items, total } = auditPage(db, page, PAGE_SIZE, actor || undefined);
      return ctx.ok(req, { data: items.map(auditView), total });
    },
    extras,
  );

  // The money catalogue: list, add and change, the same for each of its three parts.
  for (const [cat, list, add, update] of [
    [CHARGE_CHANNELS, api.chargeChannels, api.addChargeChannel, api.updateChargeChannel],
    [WIRE_ACCOUNTS, api.wireAccounts, api.addWireAccount, api.updateWireAccount],
    [DRAW_CURRENCIES, api.drawCurrencies, api.addDrawCurrency, api.updateDrawCurrency],
  ] as const) {
    route(
      app,
      list,
      async (req) => {
        return ctx.ok(req, listCatalog(db, cat));
      },
      extras,
    );
    route(
      app,
      add,
      async (req) => {
        const op = operatorOf(req);
        return ctx.ok(req, addToCatalog(db, cat, req.body, op.actor));
      },
      extras,
    );
    route(
      app,
      update,
      async (req) => {
        const op = operatorOf(req);
        const id = int((req.params as { id: string }).id, "id");
        return ctx.ok(req, updateCatalog(db, cat, id, req.body, op.actor));
      },
      extras,
    );
  }

  app.get(
    "/admin/api/uploads/:name",
    {
      schema: {
        tags: ["operators"],
        summary: "A user's uploaded image (a deposit proof), for operators",
        params: z.object({ name: z.string() }),
      },
    },
    async (req, reply) => {
      guardOperator(ctx, req, "read");
      const { upload, data } = uploads.read((req.params as { name: string }).name, null);
      return reply
        .header("Content-Type", upload.mime)
        .header("Cache-Control", "private, no-store")
        .header("X-Content-Type-Options", "nosniff")
        .header("Content-Security-Policy", "default-src 'none'; sandbox")
        .send(data);
    },
  );

  // Anything else under /admin/ is not found, in the envelope (never a user route).
  app.all("/admin/*", async (req, reply) => {
    guardOperator(ctx, req, "read");
    return reply
      .status(404)
      .send({ code: CODE.NOT_FOUND, msg: translate(req.lang, "not_found"), data: null });
  });
}
