/**
 * Real-name verification over real HTTP (upstream/API.md "Verification"): user_real/real_name and
 * user_real/center for a real account (good and bad input, someone else's upload, demo accounts,
 * a second submission), and the operators' queue (approve, reject with a remark, decisions only of
 * a waiting request, each with its audit row, never with a user's token).
 */
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REVIEW_STATUS } from "@contract/enums";
import { REAL_NAME_REQUEST } from "@contract/api/verify";
import { HARNESS_OPERATOR_TOKEN } from "./upstream-harness.js";
import { loginEmail, registerEmail, startServer, type Server } from "./accounts-helpers.js";

const op = { headers: { authorization: `Bearer ${HARNESS_OPERATOR_TOKEN}` } };
let s: Server;
let seq = 0;

beforeAll(async () => {
  s = await startServer();
}, 60_000);

afterAll(async () => {
  await s?.close();
});

async function realUser(): Promise<{ token: string; id: number; uid: string }> {
  const email = `verify${++seq}-${process.pid}@example.com`;
  await registerEmail(s, email);
  const l = await loginEmail(s, email);
  return { token: l.data.token, id: Number(l.data.user.id), uid: String(l.data.user.uid) };
}

async function upload(token: string, color = "#09c"): Promise<string> {
  const png = await sharp({ create: { width: 12, height: 8, channels: 3, background: color } })
    .png()
    .toBuffer();
  const form = new FormData();
  form.append("file", new Blob([new Uint8Array(png)], { type: "image/png" }), "id.png");
  const r = (await (
    await fetch(`${s.base}/api/common/image_upload`, {
      method: "POST",
      headers: { authorization: token },
      body: form,
    })
  ).json()) as { code: number; data: { name: string } };
  expect(r.code).toBe(1);
  return r.data.name;
}

const requests = () =>
  (s.up.ctx.db.prepare("SELECT COUNT(*) AS n FROM real_name_requests").get() as { n: number }).n;

async function submit(token: string, fields: Record<string, string> = {}) {
  const front = fields.front_pic ?? (await upload(token, "#123"));
  const reverse = fields.reverse_pic ?? (await upload(token, "#456"));
  return s.post(
    "/api/user_real/real_name",
    {
      name: "Mei Ling Chan",
      card_id: "A1234567",
      ...fields,
      front_pic: front,
      reverse_pic: reverse,
    },
    { token },
  );
}

describe("real-name verification", () => {
  it("starts not submitted, refuses bad input storing nothing, then waits with a masked id", async () => {
    const u = await realUser();
    const c0 = await s.get("/api/user_real/center", { token: u.token });
    expect(c0).toMatchObject({
      code: 1,
      data: { review_status: REVIEW_STATUS.NOT_SUBMITTED, name: null, card_id: null, remark: null },
    });
    const front = await upload(u.token, "#111");
    const back = await upload(u.token, "#222");
    const bad: [Record<string, string>, string][] = [
      [{ name: "  " }, "Please enter your name as it appears on your ID"],
      [{ name: "x".repeat(65) }, "The name may have at most 64 characters"],
      [{ name: "<script>" }, "The name may contain only letters, spaces and . ' -"],
      [{ card_id: " " }, "Please enter your ID number"],
      [{ card_id: "12" }, "The ID number must have 4 to 32 letters or digits"],
      [{ card_id: "12;DROP" }, "The ID number must have 4 to 32 letters or digits"],
      [{ front_pic: "" }, "Please upload the front of your ID"],
      [{ reverse_pic: "" }, "Please upload the back of your ID"],
      [{ reverse_pic: front }, "The front and the back must be two different images"],
      [
        { front_pic: "0123456789abcdef0123456789abcdef.png" },
        "This image was not uploaded from this account; please upload it again",
      ],
    ];
    for (const [fields, msg] of bad) {
      const r = await submit(u.token, { front_pic: front, reverse_pic: back, ...fields });
      expect(r, JSON.stringify(fields)).toMatchObject({ code: 0, msg });
    }
    const de = await s.post(
      "/api/user_real/real_name",
      { name: "", card_id: "A1234567", front_pic: front, reverse_pic: back },
      { token: u.token, lang: "de" },
    );
    expect(de.msg).toBe("Bitte geben Sie Ihren Namen wie im Ausweis an");
    expect(requests()).toBe(0);

    const ok = await submit(u.token, {
      name: "  Mei   Ling Chan ",
      card_id: " a1234567 ",
      front_pic: front,
      reverse_pic: back,
    });
    expect(ok).toMatchObject({
      code: 1,
      msg: "Verification submitted; it will be reviewed shortly",
      data: {
        review_status: REVIEW_STATUS.WAITING,
        name: "Mei Ling Chan",
        card_id: "A1****67",
        remark: null,
        reviewed_at: null,
      },
    });
    expect(ok.data.submitted_at).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const again = await submit(u.token);
    expect(again).toMatchObject({ code: 0, msg: "Your verification is already under review" });
    expect(requests()).toBe(1);
  });

  it("refuses another account's upload names and demo accounts", async () => {
    const a = await realUser();
    const b = await realUser();
    const theirs = await upload(b.token);
    const r = await submit(a.token, { front_pic: theirs });
    expect(r).toMatchObject({
      code: 0,
      msg: "This image was not uploaded from this account; please upload it again",
    });
    const demo = await s.post("/api/user/createAccountDemoForU");
    const dl = await s.post("/api/user/loginForU", { demo_id: demo.data.demo_id });
    for (const call of [
      s.get("/api/user_real/center", { token: dl.data.token }),
      s.post(
        "/api/user_real/real_name",
        { name: "Demo", card_id: "A1234567", front_pic: theirs, reverse_pic: theirs },
        { token: dl.data.token },
      ),
    ])
      expect(await call).toMatchObject({
        code: 0,
        msg: "Please register or log in to a real account",
      });
    const anon = await s.get("/api/user_real/center");
    expect(anon.code).toBe(999);
  });

  it("lets an operator reject with a remark, then approve a new submission, each audited", async () => {
    const u = await realUser();
    const first = await submit(u.token, { name: "Ana Souza", card_id: "123-456-789" });
    expect(first.code).toBe(1);
    const queue = await s.get("/admin/api/real_names?review_status=1", op);
    const mine = queue.data.data.filter((x: any) => x.user.id === u.id);
    expect(mine).toHaveLength(1);
    const req = mine[0];
    expect(req).toMatchObject({
      status: REAL_NAME_REQUEST.WAITING,
      name: "Ana Souza",
      card_id: "123-456-789",
      user: { uid: u.uid, email: expect.stringContaining("@example.com") },
    });
    const img = await fetch(s.base + req.front_url, op);
    expect(img.status).toBe(200);
    expect(img.headers.get("content-type")).toBe("image/png");
    expect(
      (await fetch(s.base + req.front_url, { headers: { authorization: u.token } })).status,
    ).toBe(401);

    expect((await s.post(`/admin/api/real_names/${req.id}/reject`, { remark: " " }, op)).msg).toBe(
      "Please give a reason",
    );
    const rejected = await s.post(
      `/admin/api/real_names/${req.id}/reject`,
      { remark: "The photo of the back is blurred" },
      op,
    );
    expect(rejected.data).toMatchObject({
      status: REAL_NAME_REQUEST.REJECTED,
      remark: "The photo of the back is blurred",
      decided_by: "token",
    });
    for (const p of ["approve", "reject"]) {
      const late = await s.post(`/admin/api/real_names/${req.id}/${p}`, { remark: "x" }, op);
      expect(late, p).toMatchObject({
        code: 0,
        msg: "This verification request has already been decided",
      });
    }
    const c1 = await s.get("/api/user_real/center", { token: u.token });
    expect(c1.data).toMatchObject({
      review_status: REVIEW_STATUS.NOT_SUBMITTED,
      remark: "The photo of the back is blurred",
      name: "Ana Souza",
    });
    expect(c1.data.reviewed_at).toMatch(/^\d{4}-/);

    const second = await submit(u.token, { name: "Ana Souza", card_id: "123-456-789" });
    expect(second.data).toMatchObject({ review_status: REVIEW_STATUS.WAITING, remark: null });
    const q2 = await s.get("/admin/api/real_names", op);
    const next = q2.data.data.find((x: any) => x.user.id === u.id);
    const approved = await s.post(`/admin/api/real_names/${next.id}/approve`, {}, op);
    expect(approved.data).toMatchObject({ status: REAL_NAME_REQUEST.APPROVED, remark: null });
    const c2 = await s.get("/api/user_real/center", { token: u.token });
    expect(c2.data).toMatchObject({ review_status: REVIEW_STATUS.CERTIFIED, remark: null });
    expect((await submit(u.token)).msg).toBe("Your account is already verified");

    const done = await s.get("/admin/api/real_names?review_status=2", op);
    expect(done.data.data.map((x: any) => x.id)).toContain(next.id);
    const rej = await s.get("/admin/api/real_names?review_status=3", op);
    expect(rej.data.data.map((x: any) => x.id)).toContain(req.id);

    const log = await s.get("/admin/api/audit", op);
    const rows = log.data.data.filter((r: any) => r.user_id === u.id);
    expect(rows.map((r: any) => [r.action, r.target, r.remark])).toEqual([
      ["real_name.approve", `real_name:${next.id}`, null],
      ["real_name.reject", `real_name:${req.id}`, "The photo of the back is blurred"],
    ]);
    // The history stays: both submissions are kept.
    const kept = s.up.ctx.db
      .prepare("SELECT status FROM real_name_requests WHERE user_id = ? ORDER BY id")
      .all(u.id);
    expect(kept).toEqual([
      { status: REAL_NAME_REQUEST.REJECTED },
      { status: REAL_NAME_REQUEST.APPROVED },
    ]);
  });

  it("refuses odd queue input, unknown requests and user tokens on the admin paths", async () => {
    for (const q of ["review_status=0", "review_status=9", "review_status=x", "page=0"]) {
      const r = await s.get(`/admin/api/real_names?${q}`, op);
      expect(r.code, q).toBe(0);
    }
    const missing = await fetch(`${s.base}/admin/api/real_names/999999/approve`, {
      method: "POST",
      ...op,
    });
    expect(missing.status).toBe(404);
    const bad = await s.post("/admin/api/real_names/abc/approve", {}, op);
    expect(bad).toMatchObject({ code: 0, msg: "Invalid value: id" });
    const u = await realUser();
    for (const [method, p] of [
      ["GET", "/admin/api/real_names"],
      ["POST", "/admin/api/real_names/1/approve"],
      ["POST", "/admin/api/real_names/1/reject"],
    ]) {
      for (const auth of [u.token, `Bearer ${u.token}`]) {
        const r = await fetch(s.base + p, { method, headers: { authorization: auth } });
        expect(r.status, p).toBe(401);
      }
    }
  });
});
