/**
 * The deposit queue (/admin/api/charges): list, approve (another amount than declared, or above the
 * deposit maximum, waits for a second operator), reject, mark invalid.
 */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import { CHARGE_STATUS } from "@contract/enums";
import type { AppContext } from "../../../platform/context.js";
import { DomainError } from "../../../platform/errors.js";
import { operatorOf } from "../../../platform/http/operator-guard.js";
import { route } from "../../../platform/http/route.js";
import { usdToMicro } from "../../money/decimal.js";
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
      // Another amount than declared, or more than any deposit may be: a second operator checks.
      if (credited !== c.amountMicro || credited > ctx.deposits.bounds().maxMicro)
        return pending(requests, req, op, {
          kind: "charge.approve",
          permission: "money",
          target: `charge:${id}`,
          payload: { id, received },
          summary: receivedNote(credited, c.amountMicro),
        });
      approveDeposit(ctx, op, id, received);
      return ctx.ok(req, chargeView(ctx, id));
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
