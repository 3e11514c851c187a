/**
 * News categories, news items and announcements (upstream/API.md "Content"). Readers see what is
 * published in their language and for every language (LANG_ALL); operators see and change
 * everything. Every stored HTML passes the sanitiser (html.ts) first; every change writes its audit
 * row in the same transaction. The SQL is in store.ts.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { LANG_ALL, NEWS_IMAGE_PATH } from "@contract/api/content";
import type * as api from "@contract/api/content";
import type { DB } from "../../platform/db.js";
import { CODE, CODE_FAIL, DomainError } from "../../platform/errors.js";
import { translate, type Lang } from "../../platform/i18n.js";
import { wireTime } from "../../platform/wire.js";
import { writeAudit } from "../operators/audit.js";
import { sanitizeContent } from "@contract/content-html";
import * as store from "./store.js";
import type {
  ContentRow as Row,
  ContentTable,
  ContentValue as Value,
  NewsRow,
  NoticeRow,
} from "./store.js";

export const INVALID = "content.invalid_field";
const notFound = (key: string) => new DomainError(key, CODE.NOT_FOUND, {}, 404);

/** The pictures news items may name: the files shipped in upstream/static/news/. */
export const NEWS_IMAGE_DIR = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "..",
  "..",
  "static",
  "news",
);
export const NEWS_IMAGE_RE = /^[a-z0-9-]{1,60}\.(svg|png)$/;
export const newsImages = (): Set<string> =>
  new Set(
    fs.existsSync(NEWS_IMAGE_DIR)
      ? fs.readdirSync(NEWS_IMAGE_DIR).filter((f) => NEWS_IMAGE_RE.test(f))
      : [],
  );

/**
 * A field of an entry as its schema answers it (contract/api/content.ts: trimmed, bounded, of its
 * type); `check` holds what only the upstream knows (the categories, the pictures, the sanitiser).
 */
interface Field {
  name: string;
  column?: string;
  /** Taken when adding without the field; a field without one is required by its schema. */
  dflt?: Value;
  check?: (v: Value, db: DB) => Value;
}

const html: Field = {
  name: "content",
  check: (v) => {
    const clean = sanitizeContent(String(v));
    if (!clean) throw new DomainError("content.content_required", CODE_FAIL);
    return clean;
  },
};

const logo: Field = {
  name: "logo",
  dflt: "",
  check: (v) => {
    const s = String(v);
    if (s && !(NEWS_IMAGE_RE.test(s) && newsImages().has(s)))
      throw new DomainError("content.logo_unknown", CODE_FAIL, { logo: s.slice(0, 80) });
    return s;
  },
};

const categoryId: Field = {
  name: "category_id",
  check: (v, db) => {
    if (!store.categoryExists(db, Number(v)))
      throw new DomainError("content.category_unknown", CODE_FAIL);
    return v;
  },
};

interface Kind {
  table: ContentTable;
  /** Names the entry in audit rows ("news:3"). */
  noun: string;
  fields: Field[];
}

export const CATEGORIES: Kind = {
  table: "news_categories",
  noun: "news_category",
  fields: [{ name: "name" }, { name: "sort", dflt: 0 }, { name: "published", dflt: 1 }],
};

export const NEWS: Kind = {
  table: "news",
  noun: "news",
  fields: [
    categoryId,
    { name: "title" },
    { name: "desc", column: "summary", dflt: "" },
    logo,
    html,
    { name: "lang", dflt: LANG_ALL },
    { name: "published", dflt: 1 },
  ],
};

export const NOTICES: Kind = {
  table: "notices",
  noun: "notice",
  fields: [
    { name: "title" },
    html,
    { name: "lang", dflt: LANG_ALL },
    { name: "is_policy", dflt: 0 },
    { name: "published", dflt: 1 },
  ],
};

const col = (f: Field) => f.column ?? f.name;

/** What changed, for the audit row: "title, published 0 -> 1" (long texts by name only). */
function changes(kind: Kind, before: Row | null, after: Row): string {
  const parts: string[] = [];
  for (const f of kind.fields) {
    const a = after[col(f)];
    const b = before ? before[col(f)] : undefined;
    if (before && a === b) continue;
    const short = typeof a === "number" || (f.name !== "content" && String(a).length <= 40);
    parts.push(
      short
        ? before
          ? `${f.name} ${String(b)} -> ${String(a)}`
          : `${f.name} ${String(a)}`
        : f.name,
    );
  }
  return parts.join(", ").slice(0, 500) || "(no change)";
}

/** An entry's fields as the schema answers them (a field left out is undefined). */
export type EntryFields = Readonly<Record<string, Value | undefined>>;

/** A field's value as stored, after its check. */
const stored = (f: Field, v: Value, db: DB): Value => (f.check ? f.check(v, db) : v);

/** Adds an entry: a field left out takes its default (the schema requires those without one). */
export function addEntry(db: DB, kind: Kind, body: EntryFields, actor: string): number {
  const row: Row = {};
  for (const f of kind.fields) {
    const v = body[f.name] ?? f.dflt;
    if (v === undefined) throw new DomainError(INVALID, CODE_FAIL, { field: f.name });
    row[col(f)] = stored(f, v, db);
  }
  const now = Date.now();
  return db.transaction(() => {
    const id = store.insertEntry(db, { table: kind.table, row, now });
    writeAudit(db, {
      actor,
      action: `${kind.noun}.add`,
      target: `${kind.noun}:${id}`,
      remark: changes(kind, null, row),
    });
    return id;
  })();
}

/** Changes the entry's fields that are given (each checked as when adding). */
export function updateEntry(
  db: DB,
  kind: Kind,
  id: number,
  body: EntryFields,
  actor: string,
): void {
  const before = store.entryById(db, { table: kind.table, id });
  if (!before) throw notFound("content.entry_not_found");
  const set: Row = {};
  for (const f of kind.fields) {
    const v = body[f.name];
    if (v !== undefined) set[col(f)] = stored(f, v, db);
  }
  const after = { ...before, ...set };
  const cols = Object.keys(set);
  db.transaction(() => {
    if (cols.length) store.updateEntryColumns(db, { table: kind.table, id, set, now: Date.now() });
    // A renamed seeded category shows the operator's name instead of its translations.
    if (kind === CATEGORIES && "name" in set && set.name !== before.name)
      store.clearCategorySlug(db, id);
    writeAudit(db, {
      actor,
      action: `${kind.noun}.update`,
      target: `${kind.noun}:${id}`,
      remark: changes(kind, before, after),
    });
  })();
}

/* ---- views ---------------------------------------------------------------------------------- */

/** A category's name: the translation of a seeded one (by its slug), else the stored name. */
function categoryName(lang: Lang, slug: string | null, name: string): string {
  if (!slug) return name;
  const key = `content.category_${slug}`;
  const t = translate(lang, key);
  return t === key ? name : t;
}

const logoPath = (file: string) => (file ? NEWS_IMAGE_PATH + file : "");

const newsItem = (lang: Lang, r: NewsRow): api.NewsItem => ({
  id: r.id,
  category_id: r.category_id,
  category_name: categoryName(lang, r.slug, r.cname),
  title: r.title,
  desc: r.summary,
  logo: logoPath(r.logo),
  created_at: wireTime(r.created_at),
});

export function publishedCategories(db: DB, lang: Lang): api.NewsCategory[] {
  return store
    .publishedCategoryRows(db)
    .map((r) => ({ id: r.id, name: categoryName(lang, r.slug, r.name) }));
}

export function newsPage(
  db: DB,
  lang: Lang,
  categoryId: number | null,
  page: number,
  pageSize: number,
): api.NewsPage {
  const categories = publishedCategories(db, lang);
  if (categoryId !== null && !categories.some((c) => c.id === categoryId))
    throw notFound("content.category_not_found");
  const rows = store.publishedNewsRows(db, {
    lang,
    categoryId,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  const total = store.publishedNewsCount(db, { lang, categoryId });
  return { list: rows.map((r) => newsItem(lang, r)), total, categories };
}

export function newsDetail(db: DB, lang: Lang, id: number): api.NewsDetail {
  const r = store.publishedNewsById(db, { lang, id });
  if (!r) throw notFound("content.news_not_found");
  return { ...newsItem(lang, r), content: r.content };
}

const notice = (r: NoticeRow): api.Notice => ({
  id: r.id,
  title: r.title,
  is_policy: r.is_policy,
  created_at: wireTime(r.created_at),
});

export function noticePage(db: DB, lang: Lang, page: number, pageSize: number): api.NoticePage {
  const rows = store.publishedNoticeRows(db, {
    lang,
    limit: pageSize,
    offset: (page - 1) * pageSize,
  });
  const total = store.publishedNoticeCount(db, lang);
  return { list: rows.map(notice), total };
}

export function noticeDetail(db: DB, lang: Lang, id: number): api.NoticeDetail {
  const r = store.publishedNoticeById(db, { lang, id });
  if (!r) throw notFound("content.notice_not_found");
  return { ...notice(r), content: r.content };
}

/* ---- operators' views ----------------------------------------------------------------------- */

export function adminCategories(db: DB): api.AdminNewsCategory[] {
  return store.adminCategoryRows(db);
}

export function adminCategory(db: DB, id: number): api.AdminNewsCategory {
  return store.adminCategoryRow(db, id);
}

const adminNewsView = (r: NewsRow): api.AdminNews => ({
  id: r.id,
  category_id: r.category_id,
  title: r.title,
  desc: r.summary,
  logo: r.logo,
  content: r.content,
  lang: r.lang,
  published: r.published,
  created_at: wireTime(r.created_at),
});

export function adminNewsPage(db: DB, page: number, pageSize: number) {
  const rows = store.newsRows(db, { limit: pageSize, offset: (page - 1) * pageSize });
  const total = store.newsCount(db);
  return { data: rows.map(adminNewsView), total };
}

export function adminNewsItem(db: DB, id: number): api.AdminNews {
  return adminNewsView(store.newsById(db, id));
}

const adminNoticeView = (r: NoticeRow): api.AdminNotice => ({
  id: r.id,
  title: r.title,
  content: r.content,
  lang: r.lang,
  is_policy: r.is_policy,
  published: r.published,
  created_at: wireTime(r.created_at),
});

export function adminNoticePage(db: DB, page: number, pageSize: number) {
  const rows = store.noticeRows(db, { limit: pageSize, offset: (page - 1) * pageSize });
  const total = store.noticeCount(db);
  return { data: rows.map(adminNoticeView), total };
}

export function adminNotice(db: DB, id: number): api.AdminNotice {
  return adminNoticeView(store.noticeById(db, id));
}
