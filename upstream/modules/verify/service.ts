/**
 * Real-name verification (trading-rules.md "Deposits, withdrawals, verification"; product-spec.md
 * "/mine/auth"). Every submission is a row of real_name_requests, never overwritten: waiting (1) ->
 * approved (2) | rejected (3, with the operator's remark). An account's review_status follows its
 * latest request: waiting -> REVIEW_STATUS.WAITING, approved -> CERTIFIED, rejected or none ->
 * NOT_SUBMITTED (with the remark, so the user sees why and submits again). While a request is
 * waiting or approved no other can be made (a partial unique index holds this in the store too).
 * The SQL is in store.ts.
 */
import { notify } from "../notify/notices.js";
import { REVIEW_STATUS } from "@contract/enums";
import { REAL_NAME_REQUEST } from "@contract/api/verify";
import type { DB } from "../../platform/db.js";
import { CODE, DomainError } from "../../platform/errors.js";
import * as store from "./store.js";
import type { RealNameRow as Row } from "./store.js";

export interface RealNameRequest {
  id: number;
  userId: number;
  name: string;
  cardId: string;
  frontPic: string;
  reversePic: string;
  status: number;
  remark: string | null;
  createdAt: number;
  decidedAt: number | null;
  decidedBy: string | null;
}

/**
 * A submission as the contract's schema answers it (contract/api/verify.ts realName): the name and
 * the id number spaced, bounded and of their characters, the id upper-cased, both images named.
 */
export interface Submission {
  name: string;
  cardId: string;
  frontPic: string;
  reversePic: string;
}

/** The account's state as user_real/center tells it. */
export interface Center {
  reviewStatus: number;
  latest: RealNameRequest | null;
}

/** An id number for display: its first 2 and last 2 characters, the rest as asterisks. */
export function maskCardId(card: string): string {
  if (card.length <= 4) return "*".repeat(card.length);
  return card.slice(0, 2) + "*".repeat(card.length - 4) + card.slice(-2);
}

export class RealNames {
  constructor(
    private readonly db: DB,
    private readonly now: () => number = Date.now,
  ) {}

  latest(userId: number): RealNameRequest | null {
    const r = store.latestRequestOf(this.db, userId);
    return r ? toRequest(r) : null;
  }

  center(userId: number): Center {
    const latest = this.latest(userId);
    const reviewStatus =
      latest?.status === REAL_NAME_REQUEST.WAITING
        ? REVIEW_STATUS.WAITING
        : latest?.status === REAL_NAME_REQUEST.APPROVED
          ? REVIEW_STATUS.CERTIFIED
          : REVIEW_STATUS.NOT_SUBMITTED;
    return { reviewStatus, latest };
  }

  /** Records a submission for review; refused with a translated reason, storing nothing. */
  submit(userId: number, s: Submission): RealNameRequest {
    const { name, cardId, frontPic: front, reversePic: reverse } = s;
    if (front === reverse) throw new DomainError("verify.pics_same");
    const tx = this.db.transaction(() => {
      const user = store.userDemoFlag(this.db, userId);
      if (!user) throw new DomainError("not_found", CODE.NOT_FOUND);
      if (user.is_demo) throw new DomainError("demo_only_true_account");
      const state = this.center(userId).reviewStatus;
      if (state === REVIEW_STATUS.WAITING) throw new DomainError("verify.already_waiting");
      if (state === REVIEW_STATUS.CERTIFIED) throw new DomainError("verify.already_certified");
      for (const pic of [front, reverse]) {
        const up = store.uploadOwner(this.db, pic);
        if (!up || up.user_id !== userId) throw new DomainError("verify.pic_not_found");
      }
      const id = store.insertRequest(this.db, {
        userId,
        name,
        cardId,
        frontPic: front,
        reversePic: reverse,
        status: REAL_NAME_REQUEST.WAITING,
        createdAt: this.now(),
      });
      return this.get(id)!;
    });
    return tx();
  }

  get(id: number): RealNameRequest | null {
    const r = store.requestById(this.db, id);
    return r ? toRequest(r) : null;
  }

  /** Certifies a waiting request (call inside the transaction that writes its audit row). */
  approve(id: number, by: string): RealNameRequest {
    return this.decide(id, REAL_NAME_REQUEST.APPROVED, by, null);
  }

  /** Rejects a waiting request with the remark its user sees (the schema's: spaced, not blank). */
  reject(id: number, by: string, remark: string): RealNameRequest {
    return this.decide(id, REAL_NAME_REQUEST.REJECTED, by, remark);
  }

  private decide(id: number, to: number, by: string, remark: string | null): RealNameRequest {
    const tx = this.db.transaction(() => {
      const cur = this.get(id);
      if (!cur) throw new DomainError("not_found", CODE.NOT_FOUND, {}, 404);
      if (cur.status !== REAL_NAME_REQUEST.WAITING) throw new DomainError("verify.already_decided");
      const changed = store.decideRequest(this.db, {
        id,
        from: REAL_NAME_REQUEST.WAITING,
        to,
        remark,
        decidedAt: this.now(),
        decidedBy: by,
      });
      if (changed !== 1)
        throw new Error(`real-name request ${id} changed under its own transaction`);
      notify(this.db, {
        userId: cur.userId,
        kind: to === REAL_NAME_REQUEST.APPROVED ? "verification_approved" : "verification_rejected",
        params: { remark: remark ?? "" },
      });
      return this.get(id)!;
    });
    return tx();
  }

  /** Requests of a status, oldest first, one page. */
  page(
    status: number,
    page: number,
    pageSize: number,
  ): { items: RealNameRequest[]; total: number } {
    const items = store
      .requestsByStatus(this.db, { status, limit: pageSize, offset: (page - 1) * pageSize })
      .map(toRequest);
    const total = store.requestCountByStatus(this.db, status);
    return { items, total };
  }
}

const toRequest = (r: Row): RealNameRequest => ({
  id: r.id,
  userId: r.user_id,
  name: r.name,
  cardId: r.card_id,
  frontPic: r.front_pic,
  reversePic: r.reverse_pic,
  status: r.status,
  remark: r.remark,
  createdAt: r.created_at,
  decidedAt: r.decided_at,
  decidedBy: r.decided_by,
});
