/**
 * News and the policy notice through the real web server: an article whose stored HTML is hostile
 * (written straight into the store, past the upstream's sanitiser) is sanitised again before it is
 * rendered; the policy notice shows to a new visitor, its dismissal needs the CSRF token (403
 * without, nothing remembered) and then holds on every page.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cookieHeader, keepCookies, startWeb, type WebServer } from "./web-harness";

let web: WebServer;

beforeAll(async () => {
  web = await startWeb({ env: { STRATEGIES: "off" } });
}, 120_000);

afterAll(async () => {
  await web?.close();
});

describe("article HTML is sanitised again when rendered", () => {
  it("renders no script, handler, javascript: link or frame of HTML stored unsanitised", async () => {
    const db = new Database(path.join(web.dataDir, "upstream.sqlite"));
    const now = Date.now();
    const hostile =
      '<p onclick="steal()">Kept <b>bold</b></p><script>steal()</script><img src="x" onerror="steal()">' +
      '<a href="javascript:steal()">bad</a><iframe src="https://evil.example"></iframe>' +
      '<a href="https://example.com/ok">ok</a>';
    const id = Number(
      db
        .prepare(
          "INSERT INTO news (category_id, title, summary, logo, content, lang, published, created_at, updated_at) VALUES (1, 'Stored raw', '', '', ?, '', 1, ?, ?)",
        )
        .run(hostile, now, now).lastInsertRowid,
    );
    db.close();
    const res = await fetch(`${web.base}/news/detail?id=${id}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const body = /data-testid="article-body">([\s\S]*?)<\/div><\/article>/.exec(html)?.[1] ?? "";
    expect(body).toContain("Kept <b>bold</b>");
    expect(body).toContain('href="https://example.com/ok"');
    expect(body).not.toMatch(/<script|onclick|onerror|javascript:|<iframe/i);
  });

  it("answers 404 with a message for an unknown or malformed article id", async () => {
    for (const q of ["999999", "abc", "-1"]) {
      const res = await fetch(`${web.base}/news/detail?id=${q}`);
      expect(res.status, q).toBe(404);
      expect(await res.text()).toContain('data-testid="news-notice"');
    }
  });
});

describe("the policy notice", () => {
  it("shows once to a new visitor and stays dismissed after a CSRF-checked POST", async () => {
    const jar = new Map<string, string>();
    const first = await fetch(`${web.base}/news`, { redirect: "manual" });
    keepCookies(first, jar);
    const html = await first.text();
    expect(html).toContain('data-testid="policy-notice"');
    expect(html).toContain("Notice on restricted countries");
    const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1];
    const version = /name="version" value="([^"]+)"/.exec(html)![1];

    const post = (body: Record<string, string>) =>
      fetch(`${web.base}/policy-notice`, {
        method: "POST",
        redirect: "manual",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          cookie: cookieHeader(jar),
          origin: web.base,
        },
        body: new URLSearchParams(body).toString(),
      });
    const forged = await post({ version, redirectTo: "/news" });
    expect(forged.status, await forged.clone().text()).toBe(403);
    expect(forged.headers.getSetCookie().some((c) => c.startsWith("tp_policy_seen="))).toBe(false);
    const bad = await post({ csrf, version: "yesterday", redirectTo: "/news" });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("This notice could not be dismissed");

    const ok = await post({ csrf, version, redirectTo: "/news?category_id=2" });
    expect(ok.status).toBe(302);
    expect(ok.headers.get("location")).toBe("/news?category_id=2");
    keepCookies(ok, jar);
    for (const p of ["/", "/news", "/language"]) {
      const again = await fetch(`${web.base}${p}`, { headers: { cookie: cookieHeader(jar) } });
      expect(await again.text(), p).not.toContain('data-testid="policy-notice"');
    }
    // An outside address is never where a dismissal leads.
    const away = await post({ csrf, version, redirectTo: "https://evil.example/" });
    expect(away.headers.get("location")).toBe("/");
  });
});
