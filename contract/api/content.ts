/**
 * News and announcements (upstream/API.md "Content"): the public news list and articles, the
 * announcements (among them the policy notice) and their editors under /admin/api/. Articles are
 * HTML: the upstream sanitises it when it is stored and the web again before it renders it, both
 * with the allow-list below (CONTENT_HTML), so the two programs agree on what may survive.
 */
import { z } from "zod";
import { endpoint, cacheBuster, text } from "./endpoint";
import { adminPage } from "./admin";
import { LANGS } from "../constants";
import { choiceField, ID_DIGITS, optionalWholeField, pageField, wholeField } from "../fields";
import { LANG_ALL, CONTENT_MAX_CHARS } from "./content-rules";
export * from "./content-rules";

/**
 * The HTML allow-list of articles and announcements. Everything else is removed: scripts, styles,
 * frames, forms, event-handler and style attributes. Links keep only the schemes listed (and
 * same-origin paths) and always get rel="noopener noreferrer"; images only http(s) or same-origin.
 */
export const CONTENT_HTML = {
  tags: [
    "p",
    "br",
    "hr",
    "h2",
    "h3",
    "h4",
    "strong",
    "b",
    "em",
    "i",
    "u",
    "s",
    "small",
    "sub",
    "sup",
    "blockquote",
    "code",
    "pre",
    "ul",
    "ol",
    "li",
    "a",
    "img",
    "figure",
    "figcaption",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
  ],
  attributes: {
    a: ["href", "title", "rel"],
    img: ["src", "alt", "width", "height"],
    th: ["colspan", "rowspan", "scope"],
    td: ["colspan", "rowspan"],
  },
  linkSchemes: ["http", "https", "mailto"],
  imageSchemes: ["http", "https"],
  linkRel: "noopener noreferrer",
} as const;

/** A news category with its name in the request's language. */
export const NewsCategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
});
export type NewsCategory = z.infer<typeof NewsCategorySchema>;

/** A news item of a list. */
export const NewsItemSchema = z.object({
  id: z.number().int(),
  category_id: z.number().int(),
  category_name: z.string(),
  title: z.string(),
  desc: z.string().describe("the summary"),
  logo: z
    .string()
    .describe('path of its picture on the upstream (NEWS_IMAGE_PATH + file), or "" without one'),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
});
export type NewsItem = z.infer<typeof NewsItemSchema>;

/** A news item with its article (sanitised HTML). */
export const NewsDetailSchema = NewsItemSchema.extend({
  content: z.string().describe("the article, sanitised HTML (CONTENT_HTML)"),
});
export type NewsDetail = z.infer<typeof NewsDetailSchema>;

export const NewsPageSchema = z.object({
  list: z.array(NewsItemSchema),
  total: z.number().int().describe("items of the list (of the category, when one is asked)"),
  categories: z
    .array(NewsCategorySchema)
    .describe("every published category, for the category links"),
});
export type NewsPage = z.infer<typeof NewsPageSchema>;

/** An announcement of a list. */
export const NoticeSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  is_policy: z
    .number()
    .int()
    .describe("1 for the notice that services are not offered in some countries (policy reasons)"),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
});
export type Notice = z.infer<typeof NoticeSchema>;

export const NoticeDetailSchema = NoticeSchema.extend({
  content: z.string().describe("the announcement, sanitised HTML (CONTENT_HTML)"),
});
export type NoticeDetail = z.infer<typeof NoticeDetailSchema>;

export const NoticePageSchema = z.object({
  list: z.array(NoticeSchema),
  total: z.number().int(),
});
export type NoticePage = z.infer<typeof NoticePageSchema>;

/** An item's id; a malformed one is the route's field refusal ("The field id is not valid"). */
const id = wholeField(ID_DIGITS);
const page = pageField();

export const newsList = endpoint({
  data: NewsPageSchema,
  method: "GET",
  path: "/api/news/list",
  auth: false,
  tag: "content",
  summary:
    "Published news in the request's language and for every language, newest first, PAGE_SIZE a page; optionally of one category; with the categories",
  query: z.object({ category_id: optionalWholeField(ID_DIGITS), page, ...cacheBuster }),
});

export const newsInfo = endpoint({
  data: NewsDetailSchema,
  method: "GET",
  path: "/api/news/info",
  auth: false,
  tag: "content",
  summary: "One published news item with its article (an unknown or unpublished id: 404)",
  query: z.object({ id, ...cacheBuster }),
});

export const noticeList = endpoint({
  data: NoticePageSchema,
  method: "GET",
  path: "/api/notice/list",
  auth: false,
  tag: "content",
  summary:
    "Published announcements in the request's language and for every language, newest first, PAGE_SIZE a page",
  query: z.object({ page, ...cacheBuster }),
});

export const noticeInfo = endpoint({
  data: NoticeDetailSchema,
  method: "GET",
  path: "/api/notice/info",
  auth: false,
  tag: "content",
  summary: "One published announcement with its text (an unknown or unpublished id: 404)",
  query: z.object({ id, ...cacheBuster }),
});

/* ---- the editors (operators only) ---------------------------------------------------------- */

const byId = z.object({ id });

export const AdminNewsCategorySchema = z.object({
  id: z.number().int(),
  name: z.string().describe("the stored name (a seeded category's readers see its translation)"),
  sort: z.number().int().describe("the place in the category list"),
  published: z.number().int().describe("1 published, 0 not"),
});
export type AdminNewsCategory = z.infer<typeof AdminNewsCategorySchema>;

export const AdminNewsSchema = z.object({
  id: z.number().int(),
  category_id: z.number().int(),
  title: z.string(),
  desc: z.string(),
  logo: z.string().describe('the picture\'s file name in NEWS_IMAGE_PATH, or ""'),
  content: z.string().describe("sanitised HTML"),
  lang: z.string().describe("LANG_ALL or a language code"),
  published: z.number().int().describe("1 published, 0 not"),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
});
export type AdminNews = z.infer<typeof AdminNewsSchema>;

export const AdminNoticeSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string().describe("sanitised HTML"),
  lang: z.string().describe("LANG_ALL or a language code"),
  is_policy: z.number().int().describe("1 for the policy notice"),
  published: z.number().int().describe("1 published, 0 not"),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
});
export type AdminNotice = z.infer<typeof AdminNoticeSchema>;

/** A text field beyond its length: "The field FIELD may have at most MAX characters". */
const TOO_LONG = "content.too_long";

/** An editor's text, answered trimmed. */
const trimmed = (max: number) => text(max, TOO_LONG).transform((s) => s.trim());

/**
 * An editor's text that must hold something: absent or blank is refused with `missing` (an
 * update may leave the field out, see `.partial()` below).
 */
const filled = (max: number, missing: string) =>
  z.preprocess(
    (v) => v ?? "",
    trimmed(max).refine((s) => s !== "", { message: missing }),
  );

/** An editor's field whose empty value is its default, as a cleared form field sends it. */
const emptyIs = <T extends z.ZodTypeAny>(dflt: string | number, rule: T) =>
  z.preprocess((v) => (v === "" ? dflt : v), rule);

/** 1 published, 0 not (empty: 1). */
const published = emptyIs(1, choiceField([0, 1]));

/** LANG_ALL or one of the language codes, lower-cased. */
const lang = trimmed(8)
  .transform((s) => s.toLowerCase())
  .refine((s) => s === LANG_ALL || (LANGS as readonly string[]).includes(s), {
    message: "content.lang_unknown",
  });

/**
 * The article's HTML as written (absent is empty): the upstream sanitises it, and refuses it when
 * nothing of it would remain (content.content_required).
 */
const html = z.preprocess((v) => v ?? "", text(CONTENT_MAX_CHARS, TOO_LONG));

const categoryFields = {
  name: filled(60, "content.name_required"),
  /** The place in the category list, 0 to 99,999 (empty: 0). */
  sort: emptyIs(0, wholeField(5)),
  published,
};
const newsFields = {
  category_id: wholeField(ID_DIGITS),
  title: filled(200, "content.title_required"),
  desc: trimmed(500),
  /** A file of news_images, or "" for none. */
  logo: trimmed(80),
  content: html,
  lang,
  published,
};
const noticeFields = {
  title: filled(200, "content.title_required"),
  content: html,
  lang,
  /** 1 for the policy notice (empty: 0). */
  is_policy: emptyIs(0, choiceField([0, 1])),
  published,
};

export const adminNewsCategories = endpoint({
  data: z.array(AdminNewsCategorySchema),
  method: "GET",
  path: "/admin/api/news_categories",
  auth: true,
  operator: "read",
  tag: "content",
  summary: "Every news category, unpublished ones included",
  query: z.object({ ...cacheBuster }),
});

export const addNewsCategory = endpoint({
  data: AdminNewsCategorySchema,
  method: "POST",
  path: "/admin/api/news_categories",
  auth: true,
  operator: "support",
  tag: "content",
  summary: "Add a news category (name required); audited",
  body: z.object(categoryFields).partial({ sort: true, published: true }),
});

export const updateNewsCategory = endpoint({
  data: AdminNewsCategorySchema,
  method: "POST",
  path: "/admin/api/news_categories/:id",
  auth: true,
  operator: "support",
  tag: "content",
  summary: "Change a news category (any of its fields; published 0 hides it); audited",
  params: byId,
  body: z.object(categoryFields).partial(),
});

export const adminNews = endpoint({
  data: adminPage(AdminNewsSchema),
  method: "GET",
  path: "/admin/api/news",
  auth: true,
  operator: "read",
  tag: "content",
  summary: "Every news item, unpublished ones and every language included, newest first",
  query: z.object({ page, ...cacheBuster }),
});

export const addNews = endpoint({
  data: AdminNewsSchema,
  method: "POST",
  path: "/admin/api/news",
  auth: true,
  operator: "support",
  tag: "content",
  summary: "Add a news item; its HTML is sanitised (CONTENT_HTML) before it is stored; audited",
  body: z.object(newsFields).partial({ desc: true, logo: true, lang: true, published: true }),
});

export const updateNews = endpoint({
  data: AdminNewsSchema,
  method: "POST",
  path: "/admin/api/news/:id",
  auth: true,
  operator: "support",
  tag: "content",
  summary:
    "Change a news item (any of its fields; published 0 unpublishes it); HTML sanitised; audited",
  params: byId,
  body: z.object(newsFields).partial(),
});

export const adminNotices = endpoint({
  data: adminPage(AdminNoticeSchema),
  method: "GET",
  path: "/admin/api/notices",
  auth: true,
  operator: "read",
  tag: "content",
  summary: "Every announcement, unpublished ones and every language included, newest first",
  query: z.object({ page, ...cacheBuster }),
});

export const addNotice = endpoint({
  data: AdminNoticeSchema,
  method: "POST",
  path: "/admin/api/notices",
  auth: true,
  operator: "support",
  tag: "content",
  summary: "Add an announcement; its HTML is sanitised (CONTENT_HTML) before it is stored; audited",
  body: z.object(noticeFields).partial({ lang: true, is_policy: true, published: true }),
});

export const updateNotice = endpoint({
  data: AdminNoticeSchema,
  method: "POST",
  path: "/admin/api/notices/:id",
  auth: true,
  operator: "support",
  tag: "content",
  summary:
    "Change an announcement (any of its fields; published 0 unpublishes it); HTML sanitised; audited",
  params: byId,
  body: z.object(noticeFields).partial(),
});

export const adminNewsImages = endpoint({
  data: z.array(z.string()).describe("file names in NEWS_IMAGE_PATH, sorted"),
  method: "GET",
  path: "/admin/api/news_images",
  auth: true,
  operator: "read",
  tag: "content",
  summary: "The picture files a news item may name as its logo (NEWS_IMAGE_PATH + file)",
  query: z.object({ ...cacheBuster }),
});
