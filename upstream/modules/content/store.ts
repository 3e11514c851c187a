/**
 * The content module's SQL: news categories, news items and notices. Readers' queries keep to what
 * is published in the reader's language and for every language (LANG_ALL); the operators' queries
 * see every row. Entries are added and changed column by column over the table named by their kind
 * (service.ts holds the fields and their checks).
 */
import { LANG_ALL } from "@contract/api/content";
import type * as api from "@contract/api/content";
import type { DB } from "../../platform/db.js";

/** The tables operators add entries to and change. */
export type ContentTable = "news_categories" | "news" | "notices";

export type ContentValue = string | number;
export type ContentRow = Record<string, ContentValue>;

export type NewsRow = {
  id: number;
  category_id: number;
  title: string;
  summary: string;
  logo: string;
  content: string;
  lang: string;
  published: number;
  created_at: number;
  slug: string | null;
  cname: string;
};

export type NoticeRow = {
  id: number;
  title: string;
  content: string;
  lang: string;
  is_policy: number;
  published: number;
  created_at: number;
};

/* ---- operators' changes --------------------------------------------------------------------- */

export function categoryExists(db: DB, id: number): boolean {
  return !!db.prepare("SELECT 1 FROM news_categories WHERE id = ?").get(id);
}

/** Inserts `row` (column -> value) with both timestamps at `now`; the new row's id. */
export function insertEntry(
  db: DB,
  p: { table: ContentTable; row: ContentRow; now: number },
): number {
  const cols = Object.keys(p.row);
  const r = db
    .prepare(
      `INSERT INTO ${p.table} (${cols.join(", ")}, created_at, updated_at) VALUES (${cols
        .map((c) => `@${c}`)
        .join(", ")}, @created_at, @updated_at)`,
    )
    .run({ ...p.row, created_at: p.now, updated_at: p.now });
  return Number(r.lastInsertRowid);
}

/** Every column of an entry, or undefined. */
export function entryById(db: DB, p: { table: ContentTable; id: number }): ContentRow | undefined {
  return db.prepare(`SELECT * FROM ${p.table} WHERE id = ?`).get(p.id) as ContentRow | undefined;
}

/** Sets the columns of `set` (at least one) and updated_at to `now`. */
export function updateEntryColumns(
  db: DB,
  p: { table: ContentTable; id: number; set: ContentRow; now: number },
): void {
  const cols = Object.keys(p.set);
  db.prepare(
    `UPDATE ${p.table} SET ${cols.map((c) => `${c} = @${c}`).join(", ")}, updated_at = @updated_at WHERE id = @id`,
  ).run({ ...p.set, updated_at: p.now, id: p.id });
}

/** Drops a seeded category's slug, so its stored name shows instead of the translations. */
export function clearCategorySlug(db: DB, id: number): void {
  db.prepare("UPDATE news_categories SET slug = NULL WHERE id = ?").run(id);
}

/* ---- readers' queries ----------------------------------------------------------------------- */

export function publishedCategoryRows(db: DB): { id: number; slug: string | null; name: string }[] {
  return db
    .prepare("SELECT id, slug, name FROM news_categories WHERE published = 1 ORDER BY sort, id")
    .all() as { id: number; slug: string | null; name: string }[];
}

const NEWS_FROM =
  "FROM news n JOIN news_categories c ON c.id = n.category_id WHERE n.published = 1 AND c.published = 1 AND n.lang IN (@all, @lang)";

/** A page of published news in `lang` (and for every language), newest first; all categories when null. */
export function publishedNewsRows(
  db: DB,
  p: { lang: string; categoryId: number | null; limit: number; offset: number },
): NewsRow[] {
  const where = p.categoryId === null ? "" : " AND n.category_id = @categoryId";
  return db
    .prepare(
      `SELECT n.*, c.slug, c.name AS cname ${NEWS_FROM}${where} ORDER BY n.created_at DESC, n.id DESC LIMIT @limit OFFSET @offset`,
    )
    .all({
      all: LANG_ALL,
      lang: p.lang,
      limit: p.limit,
      offset: p.offset,
      ...(p.categoryId === null ? {} : { categoryId: p.categoryId }),
    }) as NewsRow[];
}

export function publishedNewsCount(db: DB, p: { lang: string; categoryId: number | null }): number {
  const where = p.categoryId === null ? "" : " AND n.category_id = @categoryId";
  return (
    db.prepare(`SELECT COUNT(*) AS n ${NEWS_FROM}${where}`).get({
      all: LANG_ALL,
      lang: p.lang,
      ...(p.categoryId === null ? {} : { categoryId: p.categoryId }),
    }) as { n: number }
  ).n;
}

export function publishedNewsById(db: DB, p: { lang: string; id: number }): NewsRow | undefined {
  return db
    .prepare(`SELECT n.*, c.slug, c.name AS cname ${NEWS_FROM} AND n.id = @id`)
    .get({ all: LANG_ALL, lang: p.lang, id: p.id }) as NewsRow | undefined;
}

const NOTICES_FROM = "FROM notices WHERE published = 1 AND lang IN (@all, @lang)";

/** A page of published notices in `lang` (and for every language): policies first, then newest. */
export function publishedNoticeRows(
  db: DB,
  p: { lang: string; limit: number; offset: number },
): NoticeRow[] {
  return db
    .prepare(
      `SELECT * ${NOTICES_FROM} ORDER BY is_policy DESC, created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
    )
    .all({ all: LANG_ALL, lang: p.lang, limit: p.limit, offset: p.offset }) as NoticeRow[];
}

export function publishedNoticeCount(db: DB, lang: string): number {
  return (
    db.prepare(`SELECT COUNT(*) AS n ${NOTICES_FROM}`).get({ all: LANG_ALL, lang }) as {
      n: number;
    }
  ).n;
}

export function publishedNoticeById(
  db: DB,
  p: { lang: string; id: number },
): NoticeRow | undefined {
  return db
    .prepare(`SELECT * ${NOTICES_FROM} AND id = @id`)
    .get({ all: LANG_ALL, lang: p.lang, id: p.id }) as NoticeRow | undefined;
}

/* ---- operators' queries --------------------------------------------------------------------- */

export function adminCategoryRows(db: DB): api.AdminNewsCategory[] {
  return db
    .prepare("SELECT id, name, sort, published FROM news_categories ORDER BY sort, id")
    .all() as api.AdminNewsCategory[];
}

export function adminCategoryRow(db: DB, id: number): api.AdminNewsCategory {
  return db
    .prepare("SELECT id, name, sort, published FROM news_categories WHERE id = ?")
    .get(id) as api.AdminNewsCategory;
}

/** A page of every news item, newest first. */
export function newsRows(db: DB, p: { limit: number; offset: number }): NewsRow[] {
  return db
    .prepare("SELECT * FROM news ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?")
    .all(p.limit, p.offset) as NewsRow[];
}

export function newsCount(db: DB): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM news").get() as { n: number }).n;
}

export function newsById(db: DB, id: number): NewsRow {
  return db.prepare("SELECT * FROM news WHERE id = ?").get(id) as NewsRow;
}

/** A page of every notice, newest first. */
export function noticeRows(db: DB, p: { limit: number; offset: number }): NoticeRow[] {
  return db
    .prepare("SELECT * FROM notices ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?")
    .all(p.limit, p.offset) as NoticeRow[];
}

export function noticeCount(db: DB): number {
  return (db.prepare("SELECT COUNT(*) AS n FROM notices").get() as { n: number }).n;
}

export function noticeById(db: DB, id: number): NoticeRow {
  return db.prepare("SELECT * FROM notices WHERE id = ?").get(id) as NoticeRow;
}
