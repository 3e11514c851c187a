/**
 * News and announcements over HTTP (contract/api/content.ts): the seeded news in at least three
 * categories, paging and category filters, languages, the policy notice, the editors (add, change,
 * unpublish; audited) with hostile HTML sanitised when stored, and refusals of bad input and of a
 * user's token on the operator calls.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE } from "@contract/envelope";
import { PAGE_SIZE } from "@contract/constants";
import { HARNESS_OPERATOR_TOKEN } from "./upstream-harness.js";
import { loginEmail, registerEmail, startServer, type Server } from "./accounts-helpers.js";

let s: Server;
let userToken = "";
const op = { headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` } };

beforeAll(async () => {
  s = await startServer();
  const email = `content-${process.pid}@example.com`;
  await registerEmail(s, email);
  userToken = (await loginEmail(s, email)).data.token;
}, 30_000);

afterAll(async () => {
  await s?.close();
});

/** Hostile HTML: scripts, handlers, javascript: links, styles, frames, forms, SVG tricks. */
const HOSTILE = [
  '<p onclick="alert(1)">Hello <strong>world</strong></p>',
  "<script>alert(2)</script>",
  '<img src="x" onerror="alert(3)">',
  '<a href="javascript:alert(4)">bad</a>',
  '<a href="https://example.com/a" target="_blank">good</a>',
  '<iframe src="https://evil.example"></iframe>',
  "<style>body{display:none}</style>",
  '<form action="https://evil.example"><input name="x"></form>',
  "<svg><script>alert(5)</script></svg>",
  '<p style="position:fixed">styled</p>',
  '<a href="JaVaScRiPt:alert(6)">case</a>',
  '<img src="data:image/svg+xml;base64,PHN2Zz4=">',
].join("");

function expectClean(html: string) {
  expect(html).not.toMatch(
    /<script|onclick|onerror|javascript:|<iframe|<style|<form|<input|<svg|style=/i,
  );
  expect(html).toContain("<strong>world</strong>");
  expect(html).toContain('href="https://example.com/a"');
  expect(html).toContain('rel="noopener noreferrer"');
  expect(html).not.toContain("target=");
  expect(html).not.toContain("data:image");
}

describe("news for readers", () => {
  it("lists at least 12 seeded items in at least 3 categories, newest first, with categories", async () => {
    const r = await s.get("/api/news/list");
    expect(r.code).toBe(CODE.OK);
    expect(r.data.total).toBeGreaterThanOrEqual(12);
    expect(r.data.list.length).toBe(Math.min(PAGE_SIZE, r.data.total));
    expect(r.data.categories.length).toBeGreaterThanOrEqual(3);
    const used = new Set(r.data.list.map((n: { category_id: number }) => n.category_id));
    expect(used.size).toBeGreaterThanOrEqual(3);
    const times = r.data.list.map((n: { created_at: string }) => n.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect(r.data.list[0]).toMatchObject({
      id: expect.any(Number),
      title: expect.any(String),
      desc: expect.any(String),
      logo: expect.stringMatching(/^\/static\/news\/[a-z0-9-]+\.svg$/),
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
    });
    expect(r.data.list[0]).not.toHaveProperty("content");
    const pic = await fetch(`${s.base}${r.data.list[0].logo}`);
    expect(pic.status).toBe(200);
    expect(pic.headers.get("content-type")).toContain("image/svg+xml");
    expect((await fetch(`${s.base}/static/news/nope.svg`)).status).toBe(404);
  });

  it("filters by category and pages", async () => {
    const cats = (await s.get("/api/news/list")).data.categories as { id: number }[];
    const one = await s.get(`/api/news/list?category_id=${cats[2].id}`);
    expect(one.data.list.length).toBeGreaterThan(0);
    for (const n of one.data.list) expect(n.category_id).toBe(cats[2].id);
    const far = await s.get("/api/news/list?page=99");
    expect(far.code).toBe(CODE.OK);
    expect(far.data.list).toEqual([]);
  });

  it("names seeded categories in the reader's language and shows that language's own items", async () => {
    const de = await s.get("/api/news/list", { lang: "de" });
    expect(de.data.categories.map((c: { name: string }) => c.name)).toContain("Marktkommentar");
    const fr = await s.get("/api/news/list", { lang: "fr" });
    const en = await s.get("/api/news/list", { lang: "en" });
    expect(fr.data.total).toBe(en.data.total + 1);
    expect(fr.data.list.some((n: { title: string }) => /dollar stable/i.test(n.title))).toBe(true);
  });

  it("answers an article with its HTML, and 404 for unknown ids; refuses malformed ids", async () => {
    const [first] = (await s.get("/api/news/list")).data.list;
    const d = await s.get(`/api/news/info?id=${first.id}`);
    expect(d.code).toBe(CODE.OK);
    expect(d.data.content).toMatch(/^<(p|ol|ul|h3)>/);
    const missing = await s.get("/api/news/info?id=999999", { lang: "de" });
    expect(missing.code).toBe(CODE.NOT_FOUND);
    expect(missing.msg).toMatch(/Artikel/);
    for (const bad of ["abc", "-1", "1.5", ""]) {
      const r = await s.get(`/api/news/info?id=${bad}`);
      expect(r.code).not.toBe(CODE.OK);
    }
    expect((await s.get("/api/news/list?category_id=999")).code).toBe(CODE.NOT_FOUND);
  });
});

describe("announcements for readers", () => {
  it("puts the policy notice first, in the reader's language", async () => {
    for (const [lang, word] of [
      ["en", /policy/i],
      ["ar", /السياسات/],
      ["hk", /政策/],
    ] as const) {
      const r = await s.get("/api/notice/list", { lang });
      expect(r.code).toBe(CODE.OK);
      expect(r.data.list[0].is_policy).toBe(1);
      const d = await s.get(`/api/notice/info?id=${r.data.list[0].id}`, { lang });
      expect(d.data.content).toMatch(word);
    }
    const en = await s.get("/api/notice/list", { lang: "en" });
    expect(en.data.list.filter((n: { is_policy: number }) => n.is_policy).length).toBe(1);
    expect(en.data.total).toBeGreaterThanOrEqual(3);
  });
});

describe("editors", () => {
  it("refuses a user's token and no token on every editor call", async () => {
    for (const p of ["/admin/api/news", "/admin/api/notices", "/admin/api/news_categories"]) {
      expect((await s.get(p, { headers: { authorization: `Bearer ${userToken}` } })).code).not.toBe(
        CODE.OK,
      );
      expect((await s.get(p)).code).not.toBe(CODE.OK);
    }
    const add = await s.post(
      "/admin/api/news",
      { category_id: 1, title: "x", content: "<p>x</p>" },
      {
        headers: { authorization: userToken },
      },
    );
    expect(add.code).not.toBe(CODE.OK);
  });

  it("sanitises hostile HTML when a news item is stored, publishes it and audits it", async () => {
    const r = await s.post(
      "/admin/api/news",
      {
        category_id: 2,
        title: "Hostile test",
        desc: "d",
        content: HOSTILE,
        logo: "company-app.svg",
      },
      op,
    );
    expect(r.code).toBe(CODE.OK);
    expectClean(r.data.content);
    const read = await s.get(`/api/news/info?id=${r.data.id}`);
    expectClean(read.data.content);
    expect((await s.get("/api/news/list")).data.list[0].id).toBe(r.data.id);

    const hidden = await s.post(`/admin/api/news/${r.data.id}`, { published: 0 }, op);
    expect(hidden.data.published).toBe(0);
    expect((await s.get(`/api/news/info?id=${r.data.id}`)).code).toBe(CODE.NOT_FOUND);
    const all = await s.get("/admin/api/news", op);
    expect(all.data.data.some((n: { id: number }) => n.id === r.data.id)).toBe(true);

    const audit = (await s.get("/admin/api/audit", op)).data.data as {
      action: string;
      target: string;
    }[];
    expect(audit.some((a) => a.action === "news.add" && a.target === `news:${r.data.id}`)).toBe(
      true,
    );
    expect(audit.some((a) => a.action === "news.update" && a.target === `news:${r.data.id}`)).toBe(
      true,
    );
  });

  it("refuses bad fields with translated messages and stores nothing", async () => {
    const before = (await s.get("/admin/api/news", op)).data.total;
    const cases: [Record<string, string | number>, RegExp][] = [
      [{ category_id: 1, title: "", content: "<p>x</p>" }, /title/i],
      [{ category_id: 999, title: "t", content: "<p>x</p>" }, /category/i],
      [{ category_id: 1, title: "t", content: "<script>only()</script>" }, /text/i],
      [{ category_id: 1, title: "t", content: "<p>x</p>", lang: "xx" }, /language/i],
      [{ category_id: 1, title: "t", content: "<p>x</p>", logo: "../etc/passwd" }, /picture/i],
      [{ category_id: 1, title: "t", content: "<p>x</p>", published: 7 }, /published/i],
      [{ category_id: 1, title: "t".repeat(201), content: "<p>x</p>" }, /200/],
    ];
    for (const [body, msg] of cases) {
      const r = await s.post("/admin/api/news", body, op);
      expect(r.code, JSON.stringify(body)).toBe(CODE.FAIL);
      expect(r.msg).toMatch(msg);
    }
    expect((await s.get("/admin/api/news", op)).data.total).toBe(before);
    const de = await s.post(
      "/admin/api/news",
      { category_id: 1, title: "", content: "<p>x</p>" },
      {
        ...op,
        lang: "de",
      },
    );
    expect(de.msg).toMatch(/Titel/);
  });

  it("sanitises announcements, and a category renamed by an operator keeps its name in every language", async () => {
    const n = await s.post(
      "/admin/api/notices",
      { title: "Hostile notice", content: HOSTILE, lang: "en" },
      op,
    );
    expect(n.code).toBe(CODE.OK);
    expectClean(n.data.content);
    expectClean((await s.get(`/api/notice/info?id=${n.data.id}`, { lang: "en" })).data.content);
    // Not shown in another language.
    expect((await s.get(`/api/notice/info?id=${n.data.id}`, { lang: "fr" })).code).toBe(
      CODE.NOT_FOUND,
    );

    const cat = await s.post("/admin/api/news_categories/3", { name: "Academy" }, op);
    expect(cat.data.name).toBe("Academy");
    const de = await s.get("/api/news/list", { lang: "de" });
    expect(de.data.categories.map((c: { name: string }) => c.name)).toContain("Academy");
    const added = await s.post("/admin/api/news_categories", { name: "Crypto", sort: 9 }, op);
    expect(added.code).toBe(CODE.OK);
    expect((await s.post("/admin/api/news_categories", { name: "" }, op)).code).toBe(CODE.FAIL);
    const off = await s.post(`/admin/api/news_categories/${added.data.id}`, { published: 0 }, op);
    expect(off.data.published).toBe(0);
    const cats = (await s.get("/api/news/list")).data.categories as { id: number }[];
    expect(cats.some((c) => c.id === added.data.id)).toBe(false);
  });

  it("lists the pictures a news item may use", async () => {
    const r = await s.get("/admin/api/news_images", op);
    expect(r.data).toContain("markets-gold.svg");
    for (const f of r.data) expect(f).toMatch(/^[a-z0-9-]+\.(svg|png)$/);
  });
});
