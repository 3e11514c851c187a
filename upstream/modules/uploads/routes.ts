/**
 * Uploads API (upstream/API.md "Uploads"): POST /api/common/image_upload (multipart, one file) and
 * GET /api/common/uploads/{name} for the image's owner. Demo accounts are refused.
 */
import { fileAnswer } from "../../platform/http/openapi.js";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import * as api from "@contract/api/common";
import type { AppContext } from "../../platform/context.js";
import { requireUser } from "../../platform/http/auth.js";
import { CODE_FAIL, DomainError } from "../../platform/errors.js";
import { route } from "../../platform/http/route.js";

export function registerUploadRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { uploads } = ctx;
  const maxMb = String(Math.round((ctx.config.uploadMaxBytes / (1024 * 1024)) * 10) / 10);

  route(app, api.imageUpload, async (req) => {
    const u = requireUser(ctx.db, req);
    if (u.is_demo) throw new DomainError("demo_only_true_account");
    if (!req.isMultipart()) throw new DomainError("upload_missing");
    // Counted before the image is decoded: decoding is the costly part.
    await ctx.limits.consume(["upload_account", String(u.id)]);
    const part = await req.file();
    if (!part || part.fieldname !== "file") throw new DomainError("upload_missing");
    const tooLarge = () => new DomainError("upload_too_large", CODE_FAIL, { max: maxMb }, 413);
    let data: Buffer;
    try {
      data = await part.toBuffer();
    } catch (err) {
      if ((err as { code?: string }).code === "FST_REQ_FILE_TOO_LARGE") throw tooLarge();
      throw err;
    }
    // The multipart reader cuts a file at the limit and marks it truncated; toBuffer throws only
    // when a chunk arrives after the cut, so a file whose bytes past the limit came as one last
    // chunk of nothing is returned cut short without an error. The mark is what holds.
    if (part.file.truncated) throw tooLarge();
    const s = await uploads.store(u.id, data);
    return ctx.ok(
      req,
      {
        name: s.name,
        url: api.UPLOAD_PATH + s.name,
        mime: s.mime,
        width: s.width,
        height: s.height,
        bytes: s.bytes,
      } satisfies api.Upload,
      "upload_ok",
    );
  });

  app.get(
    `${api.UPLOAD_PATH}:name`,
    {
      schema: {
        tags: ["uploads"],
        summary: "An uploaded image, for its owner (token) only",
        ...fileAnswer("image/*"),
        params: z.object({ name: z.string() }),
        headers: z.object({ authorization: z.string().optional() }).passthrough(),
      },
    },
    async (req, reply) => {
      const u = requireUser(ctx.db, req);
      const { upload, data } = uploads.read((req.params as { name: string }).name, u.id);
      return reply
        .header("Content-Type", upload.mime)
        .header("Cache-Control", "private, max-age=3600")
        .header("X-Content-Type-Options", "nosniff")
        .header("Content-Security-Policy", "default-src 'none'; sandbox")
        .send(data);
    },
  );
}
