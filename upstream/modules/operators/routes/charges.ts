/**
 * The deposit queue (/admin/api/charges): list, approve (another amount than declared, above the
 * deposit maximum, or above what one operator may credit alone (money-controls.ts), waits for a
 * second operator), reject, mark invalid.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import { CHARGE_STATUS } from "@contract/enums";
import type { AppContext } from "../../../platform/context.js";
import { DomainError } from "../../../platform/errors.js";
import { operatorOf } from "../../../platform/http/operator-guard.js";
import { route } from "../../../platform/http/route.js";
import { usdToMicro } from "../../money/decimal.js";
import { secondOperatorReason } from "../money-controls.js";
import { approveDeposit, audited, chargeOwner } from "./actions.js";
import { pending, requestsOf } from "./four-eyes.js";
import { extras, queuePage, receivedNote } from "./shared.js";
import { chargeView } from "./views.js";

/** The amount received (micro-USD) an approval names (its schema bounds it), or null for the declared amount. */
const receivedOf = (amount: string | undefined): number | null =>
  amount === undefined ? null : usdToMicro(amount);

export function registerChargeRoutes(app: FastifyInstance, ctx: AppContext): void {
  const requests = requestsOf(ctx);

  route(
    app,
    api.charges,
    async (req) => {
      const { ids, total } = queuePage(ctx, "charges", req.query);
      return ctx.ok(req, { data: ids.map((id) => chargeView(ctx, id)), total });
    },
    extras,
  );

  route(
    app,
    api.approveCharge,
    async (req) => {
      const op = operatorOf(req);
      const { id } = req.params;
      const c = chargeOwner(ctx, id);
      const received = receivedOf(req.body.amount);
      if (c.status !== CHARGE_STATUS.UNCHECKED) throw new DomainError("deposit_already_decided");
      const credited = received ?? c.amountMicro;
      // Read and booked in one transaction: two approvals cannot both pass one day's bound.
      return ctx.money.transaction(() => {
        // Another amount than declared, more than any deposit may be, or more than one operator
        // may credit alone (money-controls.ts): a second operator checks.
        const reasons = [
          credited !== c.amountMicro || credited > ctx.deposits.bounds().maxMicro
            ? receivedNote(credited, c.amountMicro)
            : null,
          secondOperatorReason(ctx.db, {
            move: "deposit",
            actor: op.actor,
            userId: c.userId,
            amountMicro: credited,
            nowMs: Date.now(),
          }),
        ].filter((x): x is string => x !== null);
        if (reasons.length > 0)
          return pending(ctx, requests, req, op, {
            kind: "charge.approve",
            permission: "money",
            target: `charge:${id}`,
            payload: { id, received },
            summary: reasons.join("; "),
            note: req.body.remark,
          });
        approveDeposit(ctx, op, id, received);
        return ctx.ok(req, chargeView(ctx, id));
      });
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
        const { id } = req.params;
        const c = chargeOwner(ctx, id);
        const { remark } = req.body;
        audited(ctx, {
          op,
          action,
          target: `charge:${id}`,
          userId: c.userId,
          run: () =>
            to === CHARGE_STATUS.REJECTED
              ? ctx.deposits.reject(id, op.actor, remark)
              : ctx.deposits.invalid(id, op.actor, remark),
          amountMicro: () => null,
          remark,
        });
        return ctx.ok(req, chargeView(ctx, id));
      },
      extras,
    );
  }
}
