/**
 * A user's uploaded image for operators (GET /admin/api/uploads/:name); each look is audited. A
 * deposit's proof is open to every role that reads the queues; an identity document (a
 * verification's picture) only to a role that decides verifications (`support`): a viewer reads the
 * verification queue without the pictures.
 */
import { fileAnswer } from "../../../platform/http/openapi.js";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppContext } from "../../../platform/context.js";
import { guardOperator } from "../../../platform/http/operator-guard.js";
import { writeAudit } from "../audit.js";
import { isIdentityDocument } from "../../verify/store.js";

export function registerUploadRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(
    "/admin/api/uploads/:name",
    {
      schema: {
        tags: ["operators"],
        summary: "A user's uploaded image (a deposit proof), for operators",
        ...fileAnswer("image/*"),
        params: z.object({ name: z.string() }),
      },
    },
    async (req, reply) => {
      const op = guardOperator(ctx.operators, req, "read");
      const name = (req.params as { name: string }).name;
      if (isIdentityDocument(ctx.db, name)) guardOperator(ctx.operators, req, "support");
      const { upload, data } = ctx.uploads.read(name, null);
      // Who looked at a user's proof of payment or identity document, and when.
      writeAudit(ctx.db, { actor: op.actor, action: "upload.view", target: `upload:${name}` });
      return reply
        .header("Content-Type", upload.mime)
        .header("Cache-Control", "private, no-store")
        .header("X-Content-Type-Options", "nosniff")
        .header("Content-Security-Policy", "default-src 'none'; sandbox")
        .send(data);
    },
  );
}
