/**
 * Companies and feedback over HTTP (contract/api/company.ts): the public search and status, the
 * company-mode settings, feedback stored with and without a signed-in user and limited per address,
 * the operators' company list (add, change, hide; audited) and feedback inbox, and a user's token
 * refused on the operator calls.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CODE } from "@contract/envelope";
import { HARNESS_OPERATOR_TOKEN } from "./upstream-harness.js";
import { loginEmail, registerEmail, startServer, type Server } from "./accounts-helpers.js";

let s: Server;
let token = "";
const op = { headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` } };
const EMAIL = `company-${process.pid}@example.com`;

beforeAll(async () => {
  s = await startServer({ rateLimit: true });
  await registerEmail(s, EMAIL);
  token = (await loginEmail(s, EMAIL)).data.token;
}, 30_000);

afterAll(async () => {
  await s?.close();
});

const auditActions = async () =>
  ((await s.get("/admin/api/audit", op)).data.data as { action: string; remark: string }[]).map(
    (r) => `${r.action} ${r.remark ?? ""}`,
  );

describe("company search and status", () => {
  it("lists every enabled company for an empty name and finds by part of the name, any case", async () => {
    const all = await s.get("/api/company/getCompany?name=");
    expect(all.code).toBe(CODE.OK);
    expect(all.data.length).toBeGreaterThanOrEqual(6);
    expect(all.data[0]).toMatchObject({
      name: expect.any(String),
      logo: expect.stringMatching(/^\/static\/logos\/company-.*\.svg$/),
      email: expect.stringContaining("@"),
      registered_address: expect.any(String),
      location: expect.any(String),
    });
    const found = await s.get("/api/company/getCompany?name=%20%20mERIDIAN%20");
    expect(found.data.map((c: { name: string }) => c.name)).toEqual(["Meridian Markets GmbH"]);
    // LIKE wildcards are plain characters.
    expect((await s.get("/api/company/getCompany?name=%25")).data).toEqual([]);
    const logo = await fetch(`${s.base}${all.data[0].logo}`);
    expect(logo.headers.get("content-type")).toContain("image/svg+xml");
  });

  it("refuses a name longer than the bound with a translated message", async () => {
    const r = await s.get(`/api/company/getCompany?name=${"x".repeat(65)}`, { lang: "de" });
    expect(r.code).toBe(CODE.FAIL);
    expect(r.msg).toContain("64");
    expect(r.msg).toMatch(/Zeichen/);
  });

  it("answers a company's status and refuses unknown or malformed ids", async () => {
    const [first] = (await s.get("/api/company/getCompany")).data;
    const st = await s.get(`/api/company/getCompanyStatus?id=${first.id}`);
    expect(st).toMatchObject({ code: CODE.OK, data: { status: 0, loss_url: "" } });
    expect((await s.get("/api/company/getCompanyStatus?id=99999")).code).toBe(CODE.NOT_FOUND);
    const bad = await s.get("/api/company/getCompanyStatus?id=abc");
    expect(bad.code).toBe(CODE.FAIL);
    expect(bad.msg).toContain("id");
  });

  it("publishes the company-mode settings and checks them", async () => {
    expect((await s.get("/api/default/setting?key=is_main")).data).toBe("0");
    expect((await s.get("/api/default/setting?key=complaint_email")).data).toContain("@");
    const badFlag = await s.post("/admin/api/settings", { key: "is_main", value: "2" }, op);
    expect(badFlag.code).toBe(CODE.FAIL);
    const badMail = await s.post(
      "/admin/api/settings",
      { key: "complaint_email", value: "not-an-address" },
      { ...op, lang: "fr" },
    );
    expect(badMail).toMatchObject({ code: CODE.FAIL, msg: "Saisissez une adresse e-mail valide" });
    await s.setting("complaint_email", "help@example.org");
    expect((await s.get("/api/default/setting?key=complaint_email")).data).toBe("help@example.org");
    expect(await auditActions()).toContainEqual(
      expect.stringMatching(/^setting .*help@example\.org/),
    );
  });
});

describe("feedback", () => {
  it("stores a message with the signed-in user's uid, and one without", async () => {
    const signed = await s.post(
      "/api/feedback/submit",
      { message: "  The chart is hard to read at night  ", contact: "+852 5555 0000" },
      { token },
    );
    expect(signed.code).toBe(CODE.OK);
    const anon = await s.post("/api/feedback/submit", { message: "Hello" });
    expect(anon.code).toBe(CODE.OK);
    const inbox = await s.get("/admin/api/feedback", op);
    expect(inbox.data.total).toBe(2);
    // Newest first.
    expect(inbox.data.data[0]).toMatchObject({ id: anon.data.id, uid: null, message: "Hello" });
    const uid = (await s.get("/api/user/info", { token })).data.uid;
    expect(inbox.data.data[1]).toMatchObject({
      uid,
      message: "The chart is hard to read at night",
      contact: "+852 5555 0000",
      handled: 0,
    });
  });

  it("refuses an empty or too long message and a too long contact, storing nothing", async () => {
    const before = (await s.get("/admin/api/feedback", op)).data.total;
    const empty = await s.post("/api/feedback/submit", { message: "   " }, { lang: "pt" });
    expect(empty).toMatchObject({ code: CODE.FAIL, msg: "Escreva sua mensagem" });
    const long = await s.post("/api/feedback/submit", { message: "a".repeat(2001) });
    expect(long.code).toBe(CODE.FAIL);
    const contact = await s.post("/api/feedback/submit", {
      message: "x",
      contact: "c".repeat(121),
    });
    expect(contact.code).toBe(CODE.FAIL);
    expect((await s.get("/admin/api/feedback", op)).data.total).toBe(before);
  });

  it("marks a message handled once, audited", async () => {
    const [first] = (await s.get("/admin/api/feedback", op)).data.data;
    const done = await s.post(`/admin/api/feedback/${first.id}/handled`, {}, op);
    expect(done.data).toMatchObject({ handled: 1, handled_by: "token" });
    await s.post(`/admin/api/feedback/${first.id}/handled`, {}, op);
    const rows = (await auditActions()).filter((a) => a.startsWith("feedback.handled"));
    expect(rows).toHaveLength(1);
    expect((await s.post("/admin/api/feedback/99999/handled", {}, op)).code).toBe(CODE.NOT_FOUND);
  });

  it("limits messages per address with HTTP 429", async () => {
    await s.setting("limit.feedback_ip", "3/3600");
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${s.base}/api/feedback/submit`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `message=limit+${i}`,
      });
      statuses.push(r.status);
    }
    // Two messages were already sent from this address above.
    expect(statuses).toContain(429);
  });
});

describe("operators' companies", () => {
  it("adds, changes and hides a company, each change audited", async () => {
    const added = await s.post(
      "/admin/api/companies",
      {
        name: "Test Harbour Partners",
        url: "https://thp.example.com",
        email: "desk@thp.example.com",
        subject: "Testing",
      },
      op,
    );
    expect(added).toMatchObject({ code: CODE.OK, data: { status: 0, enabled: 1 } });
    const id = added.data.id;
    const search = async () =>
      (await s.get("/api/company/getCompany?name=test harbour")).data as { id: number }[];
    expect((await search()).map((c) => c.id)).toEqual([id]);

    const closedNoUrl = await s.post(`/admin/api/companies/${id}`, { status: 1 }, op);
    expect(closedNoUrl.code).toBe(CODE.FAIL);
    const badUrl = await s.post(
      `/admin/api/companies/${id}`,
      { status: 1, loss_url: "javascript:alert(1)" },
      op,
    );
    expect(badUrl.code).toBe(CODE.FAIL);
    const closed = await s.post(
      `/admin/api/companies/${id}`,
      { status: 1, loss_url: "https://closed.example.com/notice" },
      op,
    );
    expect(closed.data).toMatchObject({ status: 1, loss_url: "https://closed.example.com/notice" });
    expect((await s.get(`/api/company/getCompanyStatus?id=${id}`)).data).toMatchObject({
      status: 1,
      loss_url: "https://closed.example.com/notice",
    });

    const hidden = await s.post(`/admin/api/companies/${id}`, { enabled: 0 }, op);
    expect(hidden.data.enabled).toBe(0);
    expect(await search()).toEqual([]);
    expect(
      (await s.get("/admin/api/companies", op)).data.some((c: { id: number }) => c.id === id),
    ).toBe(true);

    const actions = await auditActions();
    expect(actions.filter((a) => a.startsWith("company.add"))).toHaveLength(1);
    expect(actions.filter((a) => a.startsWith("company.update"))).toHaveLength(2);
    expect(actions).toContainEqual(expect.stringMatching(/company\.update enabled: 1 -> 0/));

    const dup = await s.post("/admin/api/companies", { name: "test harbour partners" }, op);
    expect(dup.code).toBe(CODE.FAIL);
    const noName = await s.post("/admin/api/companies", { url: "https://x.example.com" }, op);
    expect(noName.code).toBe(CODE.FAIL);
  });

  it("refuses a user's token and no token on the operator calls", async () => {
    for (const p of ["/admin/api/companies", "/admin/api/feedback"]) {
      expect((await s.get(p, { token })).code).toBe(CODE.SESSION_INVALID);
      expect((await s.get(p)).code).toBe(CODE.SESSION_INVALID);
    }
    const r = await s.post("/admin/api/companies", { name: "Sneaky" }, { token });
    expect(r.code).toBe(CODE.SESSION_INVALID);
  });
});
