/** Operators' sign-in and sign-out (POST /admin/api/login, /admin/api/logout), each audited. */
import type { FastifyInstance } from "fastify";
import * as api from "@contract/api/admin";
import { TOKEN_ACTOR } from "@contract/operators";
import type { AppContext } from "../../../platform/context.js";
import { DomainError } from "../../../platform/errors.js";
import { bearerOf, operatorOf } from "../../../platform/http/operator-guard.js";
import { route } from "../../../platform/http/route.js";
import { addressSubject } from "../../../platform/limits.js";
import { sealingKeyOf } from "../../identity/security-routes.js";
import { wireTime } from "../../../platform/wire.js";
import { revokeOperatorToken, signInOperator } from "../accounts.js";
import { writeAudit } from "../audit.js";
import { extras } from "./shared.js";

export function registerSessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { db } = ctx;
  /** The key of the operators' sealed TOTP secrets, read (or made) at the first sign-in. */
  const secretKey = () => sealingKeyOf(ctx);

  route(
    app,
    api.login,
    async (req) => {
      const { name, password, code } = req.body;
      let s: Awaited<ReturnType<typeof signInOperator>>;
      try {
        s = await signInOperator(db, ctx.limits, secretKey(), {
          name,
          password,
          code,
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
        revokeOperatorToken(db, token);
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
}
