/**
 * Four-eyes requests (issue 20): an operator's sensitive action becomes a pending request instead of
 * taking effect; a second operator whose role holds the request's permission approves it (the action
 * is then carried out, as requested, in the same transaction as the decision) or rejects it.
 *
 * Invariants:
 * - nobody decides their own request (OPERATOR_TOKEN, acting as `token`, included); the store
 *   refuses it too (a CHECK on the table);
 * - a request is decided once: pending -> approved | rejected, never back;
 * - an approval whose action is refused (the deposit was decided meanwhile, the balance no longer
 *   covers the adjustment) changes nothing and leaves the request pending, to be rejected;
 * - each step writes its audit row (request.create, request.approve, request.reject) in the same
 *   transaction, besides the action's own row, which names the request (audit.request_id);
 * - a decision refused (not the approver's to make, already decided, or no longer possible: the
 *   deposit was decided meanwhile, the balance no longer covers it) changes nothing and leaves its
 *   own audit row, request.refused, naming the refusal.
 */
import { can, TOKEN_ACTOR, type Permission } from "@contract/operators";
import { REQUEST_STATUS, type RequestKind } from "@contract/api/admin";
import type { DB } from "../../platform/db.js";
import { CODE, DomainError } from "../../platform/errors.js";
import type { OperatorCaller } from "../../platform/http/operator-guard.js";
import { writeAudit } from "./audit.js";
import {
  insertRequest,
  markRequestDecided,
  requestById,
  requestRows,
  type RequestRecord,
} from "./requests-store.js";

export type { RequestRecord } from "./requests-store.js";

export interface NewRequest {
  kind: RequestKind;
  permission: Permission;
  target: string;
  payload: Record<string, unknown>;
  summary: string;
  /** The requesting operator's own words (an adjustment's reason, an approval's remark). */
  note?: string | null;
}

/**
 * Carries out an approved request's action (its own audit row included), as `approver`; answers
 * what the action itself answers (the new channel, the credited deposit, the adjustment's row).
 */
export type Executor = (r: RequestRecord, approver: OperatorCaller) => unknown;

export class Requests {
  constructor(
    private readonly db: DB,
    private readonly executors: Record<RequestKind, Executor>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Files a request of `by`'s action, with its audit row; nothing else changes. */
  create(n: NewRequest, by: OperatorCaller): RequestRecord {
    return this.db.transaction(() => {
      const at = this.now();
      const id = insertRequest(this.db, {
        ...n,
        note: n.note || null,
        requestedBy: by.actor,
        requestedAt: at,
      });
      writeAudit(this.db, {
        actor: by.actor,
        action: "request.create",
        target: `request:${id}`,
        remark: `${n.kind} ${n.target}: ${n.summary}`,
        at,
      });
      return this.get(id)!;
    })();
  }

  get(id: number): RequestRecord | null {
    return requestById(this.db, { id });
  }

  page(status: number, page: number, pageSize: number): { items: RequestRecord[]; total: number } {
    return requestRows(this.db, { status, limit: pageSize, offset: (page - 1) * pageSize });
  }

  /**
   * Approves (carrying out the action) or rejects a pending request, as `by`: another operator
   * whose role holds the request's permission.
   */
  decide(
    id: number,
    by: OperatorCaller,
    approve: boolean,
    remark: string,
  ): { request: RequestRecord; result: unknown } {
    try {
      return this.decided(id, by, approve, remark);
    } catch (err) {
      // The decision's transaction rolled back: its refusal is recorded on its own.
      if (err instanceof DomainError) this.refused(id, by, approve, err);
      throw err;
    }
  }

  /** The audit row of a refused decision (request.refused): who, which, and why. */
  private refused(id: number, by: OperatorCaller, approve: boolean, err: DomainError): void {
    this.db.transaction(() =>
      writeAudit(this.db, {
        actor: by.actor,
        action: "request.refused",
        target: `request:${id}`,
        remark: `${approve ? "approve" : "reject"}: ${err.key}`,
        at: this.now(),
      }),
    )();
  }

  private decided(
    id: number,
    by: OperatorCaller,
    approve: boolean,
    remark: string,
  ): { request: RequestRecord; result: unknown } {
    return this.db.transaction(() => {
      const r = this.get(id);
      if (!r) throw new DomainError("not_found", CODE.NOT_FOUND, {}, 404);
      if (r.status !== REQUEST_STATUS.PENDING) throw new DomainError("request_decided");
      if (r.requestedBy === by.actor) throw new DomainError("request_own", CODE.FORBIDDEN, {}, 403);
      // The scripts' token is no person: a second pair of eyes is an operator who signed in.
      if (approve && by.actor === TOKEN_ACTOR)
        throw new DomainError("request_token", CODE.FORBIDDEN, {}, 403);
      if (!can(by.role, r.permission))
        throw new DomainError("operator_forbidden", CODE.FORBIDDEN, { role: by.role }, 403);
      const result = approve ? this.executors[r.kind](r, by) : null;
      const at = this.now();
      const decided = markRequestDecided(this.db, {
        id,
        from: REQUEST_STATUS.PENDING,
        status: approve ? REQUEST_STATUS.APPROVED : REQUEST_STATUS.REJECTED,
        decidedBy: by.actor,
        at,
        remark,
      });
      if (!decided) throw new DomainError("request_decided");
      writeAudit(this.db, {
        actor: by.actor,
        action: approve ? "request.approve" : "request.reject",
        target: `request:${id}`,
        remark: `${r.kind} ${r.target} by ${r.requestedBy}: ${remark}`,
        at,
      });
      return { request: this.get(id)!, result };
    })();
  }
}
