/**
 * Content API (upstream/API.md "Content"): news and announcements for readers, their editors for
 * operators (under /admin/api/, the operators' authorization). See service.ts.
 */
import { fileAnswer } from "../../platform/http/openapi.js";
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import * as api from "@contract/api/content";
import { PAGE_SIZE } from "@contract/constants";
import type { AppContext } from "../../platform/context.js";
import { CODE_NOT_FOUND } from "../../platform/errors.js";
import { route } from "../../platform/http/route.js";
import { translate } from "../../platform/i18n.js";
import { operatorOf } from "../../platform/http/operator-guard.js";
import {
  CATEGORIES,
  INVALID,
  NEWS,
  NEWS_IMAGE_DIR,
  NEWS_IMAGE_RE,
  NOTICES,
  addEntry,
  adminCategories,
  adminCategory,
  adminNewsItem,
  adminNewsPage,
  adminNotice,
  adminNoticePage,
  newsDetail,
  newsImages,
  newsPage,
  noticeDetail,
  noticePage,
  updateEntry,
} from "./service.js";

const extras = { invalidFieldKey: INVALID };
const IMAGE_TYPES: Record<string, string> = { svg: "image/svg+xml", png: "image/png" };

export function registerContentRoutes(app: FastifyInstance, ctx: AppContext): void {
  const db = ctx.db;

  route(
    app,
    api.newsList,
    async (req) =>
      ctx.ok(req, newsPage(db, req.lang, req.query.category_id ?? null, req.query.page, PAGE_SIZE)),
    extras,
  );

  route(
    app,
    api.newsInfo,
    async (req) => ctx.ok(req, newsDetail(db, req.lang, req.query.id)),
    extras,
  );

  route(
    app,
    api.noticeList,
    async (req) => ctx.ok(req, noticePage(db, req.lang, req.query.page, PAGE_SIZE)),
    extras,
  );

  route(
    app,
    api.noticeInfo,
    async (req) => ctx.ok(req, noticeDetail(db, req.lang, req.query.id)),
    extras,
  );

  // ---- editors ----------------------------------------------------------------------------------
  route(
    app,
    api.adminNewsCategories,
    async (req) => {
      return ctx.ok(req, adminCategories(db));
    },
    extras,
  );

  route(
    app,
    api.addNewsCategory,
    async (req) => {
      const op = operatorOf(req);
      return ctx.ok(req, adminCategory(db, addEntry(db, CATEGORIES, req.body, op.actor)));
    },
    extras,
  );

  route(
    app,
    api.updateNewsCategory,
    async (req) => {
      const op = operatorOf(req);
      const { id } = req.params;
      updateEntry(db, CATEGORIES, id, req.body, op.actor);
      return ctx.ok(req, adminCategory(db, id));
    },
    extras,
  );

  route(
    app,
    api.adminNews,
    async (req) => {
      return ctx.ok(req, adminNewsPage(db, req.query.page, PAGE_SIZE));
    },
    extras,
  );

  route(
    app,
    api.addNews,
    async (req) => {
      const op = operatorOf(req);
      return ctx.ok(req, adminNewsItem(db, addEntry(db, NEWS, req.body, op.actor)));
    },
    extras,
  );

  route(
    app,
    api.updateNews,
    async (req) => {
      const op = operatorOf(req);
      const { id } = req.params;
      updateEntry(db, NEWS, id, req.body, op.actor);
      return ctx.ok(req, adminNewsItem(db, id));
    },
    extras,
  );

  route(
    app,
    api.adminNotices,
    async (req) => {
      return ctx.ok(req, adminNoticePage(db, req.query.page, PAGE_SIZE));
    },
    extras,
  );

  route(
    app,
    api.addNotice,
    async (req) => {
      const op = operatorOf(req);
      return ctx.ok(req, adminNotice(db, addEntry(db, NOTICES, req.body, op.actor)));
    },
    extras,
  );

  route(
    app,
    api.updateNotice,
    async (req) => {
      const op = operatorOf(req);
      const { id } = req.params;
      updateEntry(db, NOTICES, id, req.body, op.actor);
      return ctx.ok(req, adminNotice(db, id));
    },
    extras,
  );

  route(
    app,
    api.adminNewsImages,
    async (req) => {
      return ctx.ok(req, [...newsImages()].sort());
    },
    extras,
  );

  // ---- pictures of news items -----------------------------------------------------------------
  const images = new Map<string, Buffer>();
  if (fs.existsSync(NEWS_IMAGE_DIR))
    for (const f of fs.readdirSync(NEWS_IMAGE_DIR))
      if (NEWS_IMAGE_RE.test(f)) images.set(f, fs.readFileSync(path.join(NEWS_IMAGE_DIR, f)));
  app.get<{ Params: { file: string } }>(
    `${api.NEWS_IMAGE_PATH}:file`,
    {
      schema: {
        tags: ["content"],
        summary: "A news item's picture (the `logo` path of news/list), SVG or PNG",
        ...fileAnswer("image/*"),
        params: z.object({ file: z.string() }),
      },
    },
    async (req, reply) => {
      const body = images.get(req.params.file);
      if (!body)
        return reply.status(404).send({
          code: CODE_NOT_FOUND,
          msg: translate(req.lang, "content.image_not_found"),
          data: null,
        });
      const ext = req.params.file.split(".").pop()!;
      return reply
        .header("Content-Type", IMAGE_TYPES[ext])
        .header("Cache-Control", "public, max-age=86400")
        .header("X-Content-Type-Options", "nosniff")
        .header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
        .send(body);
    },
  );
}
