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
import { REQUEST_STATUS } from "@contract/api/admin";
import { TOKEN_ACTOR } from "@contract/operators";
import type { AppContext } from "../../platform/context.js";
import { CODE, CODE_FAIL, DomainError } from "../../platform/errors.js";
import { intField, pageField } from "../../platform/params.js";
import { route, type RouteRequest } from "../../platform/http/route.js";
import type { OperatorCaller } from "../../platform/http/operator-guard.js";
import { translate } from "../../platform/i18n.js";
import { wireTime } from "../../platform/wire.js";
import { inMoneyRange, MICRO, parseDecimal, toMicro, dec } from "../money/decimal.js";
import { ledgerPage } from "../money/ledger.js";
import { auditPage, auditRecord, writeAudit } from "./audit.js";
import { Requests, type NewRequest, type RequestRecord } from "./requests.js";
import type { Envelope } from "@contract/envelope";
import { Idempotency } from "../../platform/idempotency.js";
import { idempotencyKeyOf } from "../../platform/http/params.js";
import { SETTINGS, describeSetting } from "./settings-registry.js";
import { getSetting, setSetting as setStoredSetting } from "../../platform/settings.js";
import {
  addToCatalog,
  type AnyCatalog,
  CHARGE_CHANNELS,
  previewCatalog,
  DRAW_CURRENCIES,
  listCatalog,
  updateCatalog,
  WIRE_ACCOUNTS,
} from "./catalog.js";
import { revokeOperatorToken, signInOperator } from "./accounts.js";
import { bearerOf, guardOperator, operatorOf } from "../../platform/http/operator-guard.js";
import { addressSubject } from "../../platform/limits.js";
import { secretKeyDir } from "../../platform/config.js";
import { loadSecretKey } from "../../platform/secret-box.js";

const INVALID = "money_invalid_field";
const extras = { invalidFieldKey: INVALID };
const usd = (micro: number | null) => (micro === null ? null : micro / MICRO);

const int = (raw: unknown, field: string, dflt?: number) => intField(raw, field, INVALID, dflt);

/** The money catalogue's three parts. */
const CATALOGS: AnyCatalog[] = [CHARGE_CHANNELS, WIRE_ACCOUNTS, DRAW_CURRENCIES];

/** The posted fields a catalogue reads (the rest of a form, such as its CSRF token, is not kept). */
function catalogBody(cat: AnyCatalog, body: Record<string, unknown>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const f of cat.fields)
    if (typeof body[f.name] === "string" || typeof body[f.name] === "number")
      kept[f.name] = String(body[f.name]);
  return kept;
}

/** "received 480.00 of 500.00" (USD), for the audit row and the approver. */
const receivedNote = (receivedMicro: number, declaredMicro: number) =>
  `received ${dec(receivedMicro).div(MICRO).toFixed(2)} of ${dec(declaredMicro).div(MICRO).toFixed(2)}`;

/** A setting operators may change; refused for any other key (own keys only: never the prototype's). */
function settingEntry(key: string): (typeof SETTINGS)[string] {
  const entry = Object.hasOwn(SETTINGS, key) ? SETTINGS[key] : undefined;
  if (!entry) throw new DomainError("setting_unknown", CODE_FAIL, { key });
  return entry;
}

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

export function registerOperatorRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db, money, deposits, withdrawals, uploads } = ctx;
  let key: Buffer | null = null;
  /** The key of the operators' sealed TOTP secrets, read (or made) at the first sign-in. */
  const secretKey = () =>
    (key ??= loadSecretKey(ctx.config.operatorSecretKey, secretKeyDir(ctx.config)));
  const idem = new Idempotency(db);

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
      // A withdrawal's decision moves the held amount, not the balance: its row says so too.
      const lock =
        before.lockMicro === after.lockMicro
          ? null
          : `lock_balance ${dec(before.lockMicro).div(MICRO).toFixed(2)} -> ${dec(after.lockMicro).div(MICRO).toFixed(2)}`;
      writeAudit(db, {
        actor: op.actor,
        action,
        target,
        userId,
        amountMicro: amountMicro(result),
        balanceBeforeMicro: before.balanceMicro,
        balanceAfterMicro: after.balanceMicro,
        remark: [remark, lock].filter(Boolean).join("; ") || null,
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

  /** The deposit approval as booked: credited, with its audit row, by `op`. */
  const approveDeposit = (op: OperatorCaller, id: number, received: number | null) => {
    const c = chargeOwner(id);
    return audited(
      op,
      "charge.approve",
      `charge:${id}`,
      c.userId,
      () => deposits.approve(id, op.actor, received),
      (done) => done.creditedMicro,
      received !== null && received !== c.amountMicro
        ? receivedNote(received, c.amountMicro)
        : null,
    );
  };

  /** An adjustment booked with its audit row, by `op`; never takes a balance below zero. */
  const bookAdjustment = (
    op: OperatorCaller,
    userId: number,
    amountMicro: number,
    remark: string,
  ): api.AuditRow =>
    money.transaction(() => {
      const before = money.balances(userId)!;
      money.post({
        userId,
        amountMicro,
        kind: "adjustment",
        memo: remark,
        ref: "adjustment",
        floorMicro: 0,
      });
      const after = money.balances(userId)!;
      const id = writeAudit(db, {
        actor: op.actor,
        action: "adjustment",
        target: `user:${userId}`,
        userId,
        amountMicro,
        balanceBeforeMicro: before.balanceMicro,
        balanceAfterMicro: after.balanceMicro,
        remark,
      });
      return auditView(auditRecord(db, id)!);
    });

  /** A checked setting stored with its audit row, by `op`; the engine reads it at once. */
  const applySetting = (op: OperatorCaller, key: string, value: string) => {
    const entry = settingEntry(key);
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
    ctx.engine.reloadSettings();
  };

  /** Adjustments above this (micro-USD, either sign) need a second operator. */
  const fourEyesAdjustmentMicro = () =>
    toMicro(dec(getSetting(db, "risk.adjustment_four_eyes_usd") ?? "1000"));

  const requests = new Requests(db, {
    catalog: (r, by) => {
      const p = r.payload as { noun: string; id: number | null; body: Record<string, string> };
      const cat = CATALOGS.find((c) => c.noun === p.noun);
      if (!cat) throw new Error(`request ${r.id}: unknown catalogue ${p.noun}`);
      return p.id === null
        ? addToCatalog(db, cat, p.body, by.actor)
        : updateCatalog(db, cat, p.id, p.body, by.actor);
    },
    setting: (r, by) => {
      const p = r.payload as { key: string; value: string };
      applySetting(by, p.key, p.value);
      return { key: p.key, value: p.value, describe: describeSetting("en", p.key) };
    },
    adjustment: (r, by) => {
      const p = r.payload as { userId: number; amountMicro: number; remark: string };
      return bookAdjustment(by, p.userId, p.amountMicro, p.remark);
    },
    "charge.approve": (r, by) => {
      const p = r.payload as { id: number; received: number | null };
      approveDeposit(by, p.id, p.received);
      return chargeView(p.id);
    },
  });

  const requestView = (r: RequestRecord): api.OperatorRequest => ({
    id: r.id,
    kind: r.kind,
    permission: r.permission,
    target: r.target,
    summary: r.summary,
    status: r.status,
    requested_by: r.requestedBy,
    requested_at: wireTime(r.requestedAt),
    decided_by: r.decidedBy,
    decided_at: r.decidedAt ? wireTime(r.decidedAt) : null,
    remark: r.remark,
  });

  /** The answer of an action filed for a second operator: nothing changed yet. */
  const pending = (req: RouteRequest, op: OperatorCaller, n: NewRequest): Envelope => {
    const filed = requests.create(n, op);
    return {
      code: CODE.OK,
      msg: translate(req.lang, "request_pending", { id: filed.id }),
      data: { pending_request: requestView(filed) } satisfies api.PendingApproval,
    };
  };

  route(
    app,
    api.login,
    async (req) => {
      const str = (v: unknown) => (typeof v === "string" ? v.trim() : "");
      const name = str(req.body.name).slice(0, 40);
      let s: Awaited<ReturnType<typeof signInOperator>>;
      try {
        s = await signInOperator(ctx.db, ctx.limits, secretKey(), {
          name,
          password: typeof req.body.password === "string" ? req.body.password : "",
          code: str(req.body.code),
          ip: addressSubject(req.ip),
        });
      } catch (err) {
        // A wrong name, password or code (not a try the limits stopped before any check).
        if (err instanceof DomainError && err.key === "operator_login_failed")
          writeAudit(db, {
            actor: name || "(none)",
            action: "operator.login_failed",
            target: `operator:${name}`,
            remark: `from ${req.ip}`,
          });
        throw err;
      }
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
      if (token && op.actor !== TOKEN_ACTOR) {
        revokeOperatorToken(ctx.db, token);
        writeAudit(db, {
          actor: op.actor,
          action: "operator.logout",
          target: `operator:${op.actor}`,
        });
      }
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
        if (!inMoneyRange(d)) throw new DomainError(INVALID, CODE_FAIL, { field: "amount" });
        received = toMicro(d);
      }
      if (c.status !== CHARGE_STATUS.UNCHECKED) throw new DomainError("deposit_already_decided");
      const credited = received ?? c.amountMicro;
      // Another amount than declared, or more than any deposit may be: a second operator checks.
      if (credited !== c.amountMicro || credited > deposits.bounds().maxMicro)
        return pending(req, op, {
          kind: "charge.approve",
          permission: "money",
          target: `charge:${id}`,
          payload: { id, received },
          summary: receivedNote(credited, c.amountMicro),
        });
      approveDeposit(op, id, received);
      return ctx.ok(req, chargeView(id));
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
      if (!inMoneyRange(d)) throw new DomainError(INVALID, CODE_FAIL, { field: "amount" });
      const amountMicro = (negative ? -1 : 1) * toMicro(d);
      const remark = remarkOf(req.body.remark);
      const key = idempotencyKeyOf(req, req.body, INVALID);
      // The same key again (a double click, a resubmitted form, a retried time-out) answers the
      // first booking's row and books nothing; with another body it is refused (422).
      const params = { actor: op.actor, uid, amountMicro, remark };
      const answer = money.transaction(() => {
        const seen = idem.lookup<Envelope>(user.id, key, "admin.adjustment", params);
        if (seen) return seen;
        // Above the four-eyes amount (either sign), a second operator books it.
        const fresh =
          Math.abs(amountMicro) > fourEyesAdjustmentMicro()
            ? pending(req, op, {
                kind: "adjustment",
                permission: "money",
                target: `user:${user.id}`,
                payload: { userId: user.id, amountMicro, remark },
                summary: `${amountMicro > 0 ? "+" : ""}${dec(amountMicro).div(MICRO).toFixed(2)} USD, ${remark}`,
              })
            : ctx.ok(req, bookAdjustment(op, user.id, amountMicro, remark));
        idem.store(user.id, key, "admin.adjustment", params, fresh);
        return fresh;
      });
      return answer;
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
          const f = ctx.engine.accountValues(u.id);
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
      const entry = settingEntry(key);
      if (entry.fourEyes) {
        // Checked now, so the approver sees a value that can take effect; checked again then.
        const refused = entry.check(value, db);
        if (refused) throw new DomainError(refused.key, CODE_FAIL, { key, ...refused.params });
        return pending(req, op, {
          kind: "setting",
          permission: "admin",
          target: `setting:${key}`,
          payload: { key, value },
          summary: `${getSetting(db, key) ?? "(unset)"} -> ${value}`,
        });
      }
      applySetting(op, key, value);
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
        // A new place to send money (or to pay out from): always a second operator's decision.
        const { diff } = previewCatalog(db, cat, null, req.body);
        return pending(req, op, {
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
        const id = int((req.params as { id: string }).id, "id");
        const { columns, diff, after } = previewCatalog(db, cat, id, req.body);
        // Hiding an entry or reordering takes effect at once; any other change waits for a second
        // operator (an address, a network, a bank account, a rate, showing an entry again).
        const immediate = columns.every((c) => c === "sort" || (c === "enabled" && !after[c]));
        if (!immediate)
          return pending(req, op, {
            kind: "catalog",
            permission: "admin",
            target: `${cat.noun}:${id}`,
            payload: { noun: cat.noun, id, body: catalogBody(cat, req.body) },
            summary: diff,
          });
        return ctx.ok(req, updateCatalog(db, cat, id, req.body, op.actor));
      },
      extras,
    );
  }

  route(
    app,
    api.requests,
    async (req) => {
      const status = int(req.query.status, "status", REQUEST_STATUS.PENDING);
      if (!(api.REQUEST_TABS as readonly number[]).includes(status))
        throw new DomainError(INVALID, CODE_FAIL, { field: "status" });
      const page = pageField(req.query.page, INVALID);
      const { items, total } = requests.page(status, page, PAGE_SIZE);
      return ctx.ok(req, { data: items.map(requestView), total });
    },
    extras,
  );

  for (const [def, approve] of [
    [api.approveRequest, true],
    [api.rejectRequest, false],
  ] as const) {
    route(
      app,
      def,
      async (req) => {
        const op = operatorOf(req);
        const id = int(req.params.id, "id");
        const remark = remarkOf(req.body.remark);
        const done = requests.decide(id, op, approve, remark);
        return ctx.ok(req, { ...requestView(done.request), result: done.result });
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
      const op = guardOperator(ctx.operators, req, "read");
      const name = (req.params as { name: string }).name;
      const { upload, data } = uploads.read(name, null);
      // Who looked at a user's proof of payment or identity document, and when.
      writeAudit(db, { actor: op.actor, action: "upload.view", target: `upload:${name}` });
      return reply
        .header("Content-Type", upload.mime)
        .header("Cache-Control", "private, no-store")
        .header("X-Content-Type-Options", "nosniff")
        .header("Content-Security-Policy", "default-src 'none'; sandbox")
        .send(data);
    },
  );

  // Anything else under /admin/ is not found, in the envelope (never a user route).
  // Not an endpoint of its own: kept out of the OpenAPI document.
  app.all("/admin/*", { schema: { hide: true } }, async (req, reply) => {
    guardOperator(ctx.operators, req, "read");
    return reply
      .status(404)
      .send({ code: CODE.NOT_FOUND, msg: translate(req.lang, "not_found"), data: null });
  });
}
