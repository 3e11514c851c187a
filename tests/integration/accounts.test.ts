/** Accounts area of the reference upstream over real HTTP against a fresh temporary database. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import {
  ageCodes,
  emailCode,
  loginEmail,
  registerEmail,
  startServer,
  type Server,
} from "./accounts-helpers.js";
import { OUTBOX_RETENTION_MS, setEmailSender } from "../../upstream/platform/mail/outbox.js";
import { sessionCacheOf } from "../../upstream/platform/session-cache.js";
import { runSeed } from "../support/lane.js";

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

describe("register and sign in by e-mail", () => {
  it("registers with the code from /dev/outbox, then logs in and reads user/info and balance", async () => {
    const email = "alice@example.com";
    const sent = await s.post("/api/notify/send_email", { to: email, type: 1 });
    expect(sent.code).toBe(1);
    const box = await s.get(`/dev/outbox?to=${email}`);
    expect(box.code).toBe(1);
    expect(box.data).toMatchObject({ to: email, type: 1 });
    expect(box.data.code).toMatch(/^\d{6}$/);
    expect(typeof box.data.created_at).toBe("number");

    // The code is not stored in clear in the codes table.
    const rows = s.up.ctx.db
      .prepare("SELECT * FROM verify_codes WHERE recipient = ?")
      .all(email) as Record<string, unknown>[];
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(box.data.code);

    const reg = await s.post("/api/user/register", {
      type: "email",
      area_id: "",
      account: email,
      password: "Secret-1234",
      re_password: "Secret-1234",
      invite_code: "",
      sms_code: box.data.code,
      key: "",
      mobile: "",
    });
    expect(reg).toMatchObject({ code: 1, data: null });
    // Register does not log in: no token was issued.
    expect((s.up.ctx.db.prepare("SELECT COUNT(*) AS n FROM tokens").get() as { n: number }).n).toBe(
      0,
    );

    const login = await loginEmail(s, "Alice@Example.com");
    expect(login.code).toBe(1);
    expect(login.data.token).toMatch(/^[0-9a-f]{32}$/);
    // The store keeps only the token's SHA-256: a copy of the database signs nobody in.
    const stored = s.up.ctx.db.prepare("SELECT * FROM tokens").all() as Record<string, unknown>[];
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(login.data.token);
    expect(stored[0].token_hash).toBe(createHash("sha256").update(login.data.token).digest("hex"));
    expect(login.data.user).toMatchObject({ email, is_demo: 0 });
    expect(login.data.user.uid).toMatch(/^[1-9]\d{7}$/);
    expect(login.data.user.invite_code).toMatch(/^[A-Z0-9]{6}$/);

    const info = await s.get("/api/user/info", { token: login.data.token });
    expect(info.code).toBe(1);
    expect(info.data).toEqual({
      id: login.data.user.id,
      uid: login.data.user.uid,
      email,
      mobile: null,
      is_demo: 0,
      invite_code: login.data.user.invite_code,
      area_id: null,
    });
    const bal = await s.get("/v1/api/main/wallet/getBalance?t=123", { token: login.data.token });
    expect(bal).toMatchObject({ code: 1, data: { balance: 0, lock_balance: 0 } });

    // Password is stored as an argon2id hash.
    const row = s.up.ctx.db
      .prepare("SELECT password_hash FROM users WHERE email = ?")
      .get(email) as { password_hash: string };
    expect(row.password_hash.startsWith("$argon2id$")).toBe(true);
  });

  it("refuses a second registration of the same address, and send_email type 1 for it", async () => {
    const again = await s.post("/api/notify/send_email", { to: "alice@example.com", type: 1 });
    expect(again.code).toBe(0);
    expect(again.msg).toBe("This account is already registered");
  });

  it("answers one generic message for a wrong password and for an unknown account", async () => {
    const wrong = await loginEmail(s, "alice@example.com", "wrongpass");
    const unknown = await loginEmail(s, "nobody@example.com", "Secret-1234");
    expect(wrong).toMatchObject({ code: 0, data: null });
    expect(unknown.msg).toBe(wrong.msg);
    expect(wrong.msg).toBe("Incorrect account or password");
  });

  it("asks to complete missing fields and never answers 500", async () => {
    const r = await s.post("/api/user/loginForU", { login_type: "email" });
    expect(r.code).toBe(0);
    expect(r.msg).toMatch(/Please complete/);
    const bad = await fetch(s.base + "/api/user/register", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{not json",
    });
    expect(bad.status).toBeLessThan(500);
    expect(((await bad.json()) as { code: number }).code).not.toBe(1);
    const arr = await s.post("/api/user/register", {}, { json: true });
    expect(arr.code).toBe(0);
    expect(arr.msg).toMatch(/Please complete/);
  });

  it("validates e-mail format, password length, password equality and the code", async () => {
    const base = {
      type: "email",
      account: "bob@example.com",
      password: "Secret-1234",
      re_password: "Secret-1234",
      sms_code: "123456",
    };
    expect((await s.post("/api/user/register", { ...base, account: "not-an-email" })).msg).toBe(
      "Please enter a valid e-mail address",
    );
    expect(
      (await s.post("/api/user/register", { ...base, password: "12345", re_password: "12345" }))
        .msg,
    ).toBe("The password must be 8 to 128 characters long");
    expect(
      (
        await s.post("/api/user/register", {
          ...base,
          password: "x".repeat(129),
          re_password: "x".repeat(129),
        })
      ).msg,
    ).toBe("The password must be 8 to 128 characters long");
    expect(
      (await s.post("/api/user/register", { ...base, password: "Secr-12", re_password: "Secr-12" }))
        .msg,
    ).toBe("The password must be 8 to 128 characters long");
    for (const common of ["password1", "Secret123", "QWERTY123", "iloveyou1"]) {
      const r = await s.post("/api/user/register", {
        ...base,
        password: common,
        re_password: common,
      });
      expect(r).toEqual({
        code: 0,
        msg: "This password is too common, please choose another one",
        data: null,
      });
    }
    const fr = await s.post(
      "/api/user/register",
      { ...base, password: "football", re_password: "football" },
      { lang: "fr" },
    );
    expect(fr.msg).toBe("Ce mot de passe est trop courant, veuillez en choisir un autre");
    expect(
      s.up.ctx.db.prepare("SELECT COUNT(*) AS n FROM users WHERE email = ?").get("bob@example.com"),
    ).toEqual({ n: 0 });
    expect((await s.post("/api/user/register", { ...base, re_password: "other123" })).msg).toBe(
      "The passwords do not match",
    );
    expect((await s.post("/api/user/register", { ...base, sms_code: "" })).msg).toBe(
      "Please enter the verification code",
    );
    expect((await s.post("/api/user/register", base)).msg).toBe(
      "The verification code is incorrect",
    );
    expect((await s.post("/api/user/register", { ...base, invite_code: "ZZZZZZ" })).msg).toBe(
      "The invite code does not exist",
    );
    expect(
      s.up.ctx.db.prepare("SELECT 1 FROM users WHERE email = ?").get("bob@example.com"),
    ).toBeUndefined();
  });

  it("records the inviter when a valid invite code is given", async () => {
    const inviter = (await loginEmail(s, "alice@example.com")).data.user;
    await registerEmail(s, "invitee@example.com", "Secret-1234", {
      invite_code: inviter.invite_code.toLowerCase(),
    });
    const row = s.up.ctx.db
      .prepare("SELECT invited_by FROM users WHERE email = ?")
      .get("invitee@example.com") as { invited_by: number };
    expect(row.invited_by).toBe(inviter.id);
  });

  it("answers code 999 for an invalid, missing or logged-out token", async () => {
    expect(
      (await s.get("/api/user/info", { token: "0123456789abcdef0123456789abcdef" })).code,
    ).toBe(999);
    expect((await s.get("/api/user/info")).code).toBe(999);
    expect((await s.get("/v1/api/main/wallet/getBalance", { token: "garbage" })).code).toBe(999);
    const { token } = (await loginEmail(s, "alice@example.com")).data;
    expect((await s.get("/api/user/info", { token })).code).toBe(1);
    const out = await s.post("/api/user/logout", {}, { token });
    expect(out.code).toBe(1);
    expect((await s.get("/api/user/info", { token })).code).toBe(999);
    expect((await s.post("/api/user/logout", {}, { token })).code).toBe(999);
  });

  it("ends a token left unused for TOKEN_IDLE_S, and a use keeps it alive", async () => {
    const { token } = (await loginEmail(s, "alice@example.com")).data;
    const hash = createHash("sha256").update(token).digest("hex");
    const db = s.up.ctx.db;
    const row = () =>
      db.prepare("SELECT idle_s, used_at FROM tokens WHERE token_hash = ?").get(hash) as {
        idle_s: number;
        used_at: number;
      };
    const idleMs = row().idle_s * 1000;
    expect(idleMs).toBe(7 * 24 * 3600 * 1000);
    // Last used almost an idle period ago: still valid, and the use moves its last use to now.
    db.prepare("UPDATE tokens SET used_at = ? WHERE token_hash = ?").run(
      Date.now() - idleMs + 60_000,
      hash,
    );
    expect((await s.get("/api/user/info", { token })).code).toBe(1);
    // Recorded without holding the event loop (on PostgreSQL, just after the answer).
    await expect.poll(() => Date.now() - row().used_at).toBeLessThan(10_000);
    // Unused for longer than the idle period: the session has ended. (The store is changed by hand
    // here, which the node's session cache learns once it reads the token again: it is told to.)
    db.prepare("UPDATE tokens SET used_at = ? WHERE token_hash = ?").run(
      Date.now() - idleMs - 1_000,
      hash,
    );
    sessionCacheOf(db).forget(hash);
    expect((await s.get("/api/user/info", { token })).code).toBe(999);
  });
});

describe("verification codes", () => {
  it("expire after 10 minutes", async () => {
    const email = "expiry@example.com";
    const code = await emailCode(s, email, 1);
    const row = s.up.ctx.db
      .prepare("SELECT expires_at - created_at AS ttl FROM verify_codes WHERE recipient = ?")
      .get(email) as { ttl: number };
    expect(row.ttl).toBe(10 * 60_000);
    s.up.ctx.db
      .prepare("UPDATE verify_codes SET expires_at = ? WHERE recipient = ?")
      .run(Date.now() - 1, email);
    const r = await s.post("/api/user/register", {
      type: "email",
      account: email,
      password: "Secret-1234",
      re_password: "Secret-1234",
      sms_code: code,
    });
    expect(r.code).toBe(0);
    expect(r.msg).toBe("The verification code has expired, please request a new one");
    expect(s.up.ctx.db.prepare("SELECT 1 FROM users WHERE email = ?").get(email)).toBeUndefined();
  });

  it("are single use", async () => {
    const email = "single@example.com";
    const code = await emailCode(s, email, 1);
    const body = {
      type: "email",
      account: email,
      password: "Secret-1234",
      re_password: "Secret-1234",
      sms_code: code,
    };
    expect((await s.post("/api/user/register", body)).code).toBe(1);
    // Same code for a reset of the now registered account is refused too (purpose and use differ).
    s.up.ctx.db.prepare("DELETE FROM users WHERE email = ?").run(email);
    const again = await s.post("/api/user/register", body);
    expect(again.code).toBe(0);
    expect(again.msg).toBe("The verification code is incorrect");
  });

  it("lock after 5 wrong tries, even for the right code", async () => {
    const email = "locked@example.com";
    const code = await emailCode(s, email, 1);
    const wrong = code === "000000" ? "111111" : "000000";
    const body = {
      type: "email",
      account: email,
      password: "Secret-1234",
      re_password: "Secret-1234",
    };
    const msgs: string[] = [];
    for (let i = 0; i < 5; i++)
      msgs.push((await s.post("/api/user/register", { ...body, sms_code: wrong })).msg);
    expect(msgs.slice(0, 4).every((m) => m === "The verification code is incorrect")).toBe(true);
    expect(msgs[4]).toBe("Too many wrong attempts, please request a new verification code");
    const right = await s.post("/api/user/register", { ...body, sms_code: code });
    expect(right.code).toBe(0);
    expect(right.msg).toBe("Too many wrong attempts, please request a new verification code");
    expect(s.up.ctx.db.prepare("SELECT 1 FROM users WHERE email = ?").get(email)).toBeUndefined();
    // A new code (after the resend wait) works again.
    ageCodes(s);
    await registerEmail(s, email);
  });

  it("allow one send per recipient per 60 s and say how long to wait, in the request's language", async () => {
    const email = "wait@example.com";
    expect((await s.post("/api/notify/send_email", { to: email, type: 1 })).code).toBe(1);
    const first = await s.get(`/dev/outbox?to=${email}`);
    const r = await s.post("/api/notify/send_email", { to: email, type: 1 });
    expect(r.code).toBe(0);
    const secs = Number(/(\d+) seconds/.exec(r.msg)?.[1]);
    expect(secs).toBeGreaterThan(55);
    expect(secs).toBeLessThanOrEqual(60);
    const fr = await s.post("/api/notify/send_email", { to: email, type: 1 }, { lang: "fr" });
    expect(fr.msg).toMatch(/^Veuillez patienter \d+ secondes/);
    // Still the first code in the outbox: nothing was sent.
    expect((await s.get(`/dev/outbox?to=${email}`)).data).toEqual(first.data);
    s.up.ctx.db
      .prepare("UPDATE verify_codes SET created_at = ? WHERE recipient = ?")
      .run(Date.now() - 45_000, email);
    const later = await s.post("/api/notify/send_email", { to: email, type: 1 });
    expect(Number(/(\d+) seconds/.exec(later.msg)?.[1])).toBeLessThanOrEqual(15);
    ageCodes(s);
    expect((await s.post("/api/notify/send_email", { to: email, type: 1 })).code).toBe(1);
    // Outbox keeps every message.
    expect(
      (
        s.up.ctx.db.prepare("SELECT COUNT(*) AS n FROM outbox WHERE recipient = ?").get(email) as {
          n: number;
        }
      ).n,
    ).toBe(2);
  });

  it("type 2 answers an unknown address as a known one and sends nothing; type and e-mail are validated", async () => {
    // The reset form tells nobody who is a customer: the same answer, the same wait, no message.
    const known = `known-${process.pid}@example.com`;
    await registerEmail(s, known);
    ageCodes(s);
    const sendReset = (to: string) => s.post("/api/notify/send_email", { to, type: 2 });
    const forKnown = await sendReset(known);
    const forGhost = await sendReset("ghost@example.com");
    expect(forGhost).toEqual(forKnown);
    expect(forGhost.code).toBe(1);
    // Asked again at once: the same wait as a customer's address gets.
    const again = await sendReset("ghost@example.com");
    expect(again.code).toBe(0);
    expect(again.msg).toMatch(/^Please wait \d+ seconds? before requesting another code$/);
    const box = await s.get(`/dev/outbox?to=${encodeURIComponent("ghost@example.com")}`);
    expect(box.code).not.toBe(1);
    // A reset for it is a wrong code, whatever is entered.
    const reset = await s.post("/api/user/forget_password", {
      type: "email",
      account: "ghost@example.com",
      new_password: "Another-1234",
      secondary_password: "Another-1234",
      auth_code: "123456",
    });
    expect(reset.msg).toBe(
      (
        await s.post("/api/user/forget_password", {
          type: "email",
          account: known,
          new_password: "Another-1234",
          secondary_password: "Another-1234",
          auth_code: "000000",
        })
      ).msg,
    );
    expect((await s.post("/api/notify/send_email", { to: "ghost@example.com", type: 3 })).msg).toBe(
      "Unknown verification type",
    );
    expect((await s.post("/api/notify/send_email", { to: "ghost", type: 1 })).msg).toBe(
      "Please enter a valid e-mail address",
    );
    expect((await s.post("/api/notify/send_email", { type: 1 })).msg).toBe("Please complete: to");
  });
});

describe("mobile accounts", () => {
  it("register by SMS code with an area code and log in with login_type mobile", async () => {
    const areas =
      await s.get<{ id: number; code: string; global_code: string }[]>("/api/default/area_list");
    const hk = areas.data.find((a) => a.code === "HK")!;
    expect(
      (await s.post("/api/notify/send_sms", { to: "9123 4567", area_id: 9999, type: 1 })).msg,
    ).toBe("Please choose a valid area code");
    expect(
      (await s.post("/api/notify/send_sms", { to: "12ab", area_id: hk.id, type: 1 })).msg,
    ).toBe("Please enter a valid mobile number");
    const sent = await s.post("/api/notify/send_sms", { to: "9123 4567", area_id: hk.id, type: 1 });
    expect(sent.code).toBe(1);
    const byDigits = await s.get("/dev/outbox?to=91234567");
    const byIntl = await s.get(`/dev/outbox?to=${encodeURIComponent("+852 91234567")}`);
    expect(byDigits.data.code).toMatch(/^\d{6}$/);
    expect(byIntl.data).toEqual(byDigits.data);
    const reg = await s.post("/api/user/register", {
      type: "mobile",
      area_id: hk.id,
      account: "",
      mobile: "91234567",
      password: "Secret-1234",
      re_password: "Secret-1234",
      sms_code: byDigits.data.code,
    });
    expect(reg.code).toBe(1);
    const login = await s.post("/api/user/loginForU", {
      account: "91234567",
      password: "Secret-1234",
      login_type: "mobile",
      area_id: hk.id,
    });
    expect(login.code).toBe(1);
    expect(login.data.user).toMatchObject({ email: null, mobile: "91234567", area_id: hk.id });
    // Without area_id the number is found while it is unique.
    expect(
      (
        await s.post("/api/user/loginForU", {
          account: "91234567",
          password: "Secret-1234",
          login_type: "mobile",
        })
      ).code,
    ).toBe(1);
  });
});

describe("demo accounts", () => {
  it("GET createAccountDemoForU changes nothing; POST creates a demo user with 10000 booked by one ledger row", async () => {
    const count = () =>
      (s.up.ctx.db.prepare("SELECT COUNT(*) AS n FROM users").get() as { n: number }).n;
    const before = count();
    const res = await fetch(s.base + "/api/user/createAccountDemoForU?t=1");
    const body = (await res.json()) as { code: number; msg: string };
    expect(body.code).not.toBe(1);
    expect(count()).toBe(before);

    const created = await s.post("/api/user/createAccountDemoForU");
    expect(created.code).toBe(1);
    expect(created.data.demo_id).toMatch(/^[0-9a-f]{32}$/);
    expect(count()).toBe(before + 1);

    const login = await s.post("/api/user/loginForU", { demo_id: created.data.demo_id });
    expect(login.code).toBe(1);
    expect(login.data.user.is_demo).toBe(1);
    const bal = await s.get("/v1/api/main/wallet/getBalance", { token: login.data.token });
    expect(bal.data).toEqual({ balance: 10000, lock_balance: 0 });
    const ledger = s.up.ctx.db
      .prepare("SELECT amount_micro, balance_after_micro, kind FROM ledger WHERE user_id = ?")
      .all(login.data.user.id);
    expect(ledger).toEqual([
      { amount_micro: 10_000_000_000, balance_after_micro: 10_000_000_000, kind: "demo_initial" },
    ]);

    const info = await s.get("/api/user/info", { token: login.data.token });
    expect(info.data).toMatchObject({ is_demo: 1, email: null });

    // Demo users may not change or reset a password.
    const amend = await s.post(
      "/api/user/amend_password",
      { new_password: "Secret-1234", auth_code: "123456", type: 2 },
      { token: login.data.token },
    );
    expect(amend).toMatchObject({ code: 0, msg: "Please register or log in to a real account" });

    expect((await s.post("/api/user/loginForU", { demo_id: "0".repeat(32) })).msg).toBe(
      "Incorrect account or password",
    );
  });

  it("uses the demo.initial_balance setting", async () => {
    await s.setting("demo.initial_balance", "2500.5");
    try {
      const { demo_id } = (await s.post("/api/user/createAccountDemoForU")).data;
      const { token } = (await s.post("/api/user/loginForU", { demo_id })).data;
      expect((await s.get("/v1/api/main/wallet/getBalance", { token })).data.balance).toBe(2500.5);
    } finally {
      await s.setting("demo.initial_balance", "10000");
    }
  });
});

describe("passwords", () => {
  it("forget_password resets with a type 2 code and revokes every session", async () => {
    const email = "reset@example.com";
    await registerEmail(s, email, "oldpass1");
    const t1 = (await loginEmail(s, email, "oldpass1")).data.token;
    ageCodes(s);
    const code = await emailCode(s, email, 2);
    const box = await s.get(`/dev/outbox?to=${email}`);
    expect(box.data.type).toBe(2);
    const mismatch = await s.post("/api/user/forget_password", {
      type: "email",
      account: email,
      new_password: "Newpass-01",
      secondary_password: "Newpass-02",
      auth_code: code,
    });
    expect(mismatch.msg).toBe("The passwords do not match");
    const ok = await s.post("/api/user/forget_password", {
      type: "email",
      account: email,
      new_password: "Newpass-01",
      secondary_password: "Newpass-01",
      auth_code: code,
    });
    expect(ok.code).toBe(1);
    expect((await s.get("/api/user/info", { token: t1 })).code).toBe(999);
    expect((await loginEmail(s, email, "oldpass1")).code).toBe(0);
    expect((await loginEmail(s, email, "Newpass-01")).code).toBe(1);
    // The code was used.
    const reuse = await s.post("/api/user/forget_password", {
      type: "email",
      account: email,
      new_password: "Newpass-03",
      secondary_password: "Newpass-03",
      auth_code: code,
    });
    expect(reuse.code).toBe(0);
  });

  it("amend_password changes the password with a code sent to the user's own address and keeps only this session", async () => {
    const email = "amend@example.com";
    await registerEmail(s, email, "oldpass1");
    const keep = (await loginEmail(s, email, "oldpass1")).data.token;
    const other = (await loginEmail(s, email, "oldpass1")).data.token;
    ageCodes(s);
    const code = await emailCode(s, email, 2);
    const wrongCode = await s.post(
      "/api/user/amend_password",
      {
        new_password: "Newpass-01",
        re_password: "Newpass-01",
        auth_code: code === "000000" ? "999999" : "000000",
        type: 2,
      },
      { token: keep },
    );
    expect(wrongCode.msg).toBe("The verification code is incorrect");
    const r = await s.post(
      "/api/user/amend_password",
      { new_password: "Newpass-01", re_password: "Newpass-01", auth_code: code, type: 2 },
      { token: keep },
    );
    expect(r.code).toBe(1);
    expect((await s.get("/api/user/info", { token: keep })).code).toBe(1);
    expect((await s.get("/api/user/info", { token: other })).code).toBe(999);
    expect((await loginEmail(s, email, "Newpass-01")).code).toBe(1);
    expect(
      (
        await s.post(
          "/api/user/amend_password",
          { new_password: "Newpass-02", auth_code: code },
          { token: "f".repeat(32) },
        )
      ).code,
    ).toBe(999);
  });
});

describe("captcha", () => {
  it("is an svg data URL; when register.captcha is on, codes need a correct single-use captcha", async () => {
    const c = await s.get("/api/captcha");
    expect(c.code).toBe(1);
    expect(c.data.id).toMatch(/^[0-9a-f]{32}$/);
    expect(c.data.b64s.startsWith("data:image/svg+xml;base64,")).toBe(true);
    expect(Buffer.from(c.data.b64s.split(",")[1], "base64").toString("utf8")).toContain("<svg");

    // Off (default): no captcha needed.
    expect(
      (await s.post("/api/notify/send_email", { to: "cap-off@example.com", type: 1 })).code,
    ).toBe(1);

    await s.setting("register.captcha", "1");
    try {
      const to = "cap-on@example.com";
      expect((await s.post("/api/notify/send_email", { to, type: 1 })).msg).toBe(
        "Please enter the captcha",
      );
      const c1 = (await s.get("/api/captcha")).data;
      expect(
        (
          await s.post("/api/notify/send_email", {
            to,
            type: 1,
            captcha_id: c1.id,
            captcha_code: "zzzz",
          })
        ).msg,
      ).toBe("The captcha is incorrect or has expired, please try again");
      // A captcha is used up by the wrong try.
      const answer1 = s.up.ctx.db
        .prepare("SELECT answer FROM captchas WHERE id = ?")
        .get(c1.id) as { answer: string };
      expect(
        (
          await s.post("/api/notify/send_email", {
            to,
            type: 1,
            captcha_id: c1.id,
            captcha_code: answer1.answer,
          })
        ).code,
      ).toBe(0);
      expect((await s.get("/dev/outbox?to=" + to)).code).toBe(404);

      const c2 = (await s.get("/api/captcha")).data;
      const text = (await s.get(`/dev/captcha?id=${c2.id}`)).data.text;
      const ok = await s.post("/api/notify/send_email", {
        to,
        type: 1,
        captcha_id: c2.id,
        captcha_code: text.toUpperCase(),
      });
      expect(ok.code).toBe(1);
      expect((await s.get("/dev/outbox?to=" + to)).code).toBe(1);
      ageCodes(s);
      const reuse = await s.post("/api/notify/send_email", {
        to,
        type: 1,
        captcha_id: c2.id,
        captcha_code: text,
      });
      expect(reuse.code).toBe(0);
      const sms = await s.post("/api/notify/send_sms", { to: "5551234567", area_id: 1, type: 1 });
      expect(sms.msg).toBe("Please enter the captcha");
    } finally {
      await s.setting("register.captcha", "0");
    }
  });
});

describe("languages", () => {
  it("translates msg by the lang header (tw maps to hk)", async () => {
    const en = await s.post(
      "/api/user/loginForU",
      { account: "alice@example.com", password: "wrong-pass", login_type: "email" },
      { lang: "en" },
    );
    const ar = await s.post(
      "/api/user/loginForU",
      { account: "alice@example.com", password: "wrong-pass", login_type: "email" },
      { lang: "ar" },
    );
    const hk = await s.post(
      "/api/user/loginForU",
      { account: "alice@example.com", password: "wrong-pass", login_type: "email" },
      { lang: "hk" },
    );
    const tw = await s.post(
      "/api/user/loginForU",
      { account: "alice@example.com", password: "wrong-pass", login_type: "email" },
      { lang: "tw" },
    );
    expect(en.msg).toBe("Incorrect account or password");
    expect(ar.msg).toBe("الحساب أو كلمة المرور غير صحيحة");
    expect(hk.msg).toBe("帳戶或密碼錯誤");
    expect(tw.msg).toBe(hk.msg);
    const incon = await s.post(
      "/api/user/register",
      {
        type: "email",
        account: "x@example.com",
        password: "Secret-1234",
        re_password: "Secret-1235",
        sms_code: "1",
      },
      { lang: "jp" },
    );
    expect(incon.msg).toBe("パスワードが一致しません");
  });
});

describe("dev outbox switched off", () => {
  it("without SMTP_URL, sending a code answers that delivery is not configured", async () => {
    const off = await startServer({ devOutbox: false });
    try {
      expect(
        await off.post("/api/notify/send_email", { to: "someone@example.com", type: 1 }),
      ).toEqual({
        code: 0,
        msg: "Code delivery is not configured on this server; please contact support",
        data: null,
      });
      const fr = await off.post(
        "/api/notify/send_email",
        { to: "someone@example.com", type: 1 },
        { lang: "fr" },
      );
      expect(fr.msg).toBe(
        "L'envoi des codes n'est pas configuré sur ce serveur ; veuillez contacter l'assistance",
      );
      const db = off.up.ctx.db;
      expect(db.prepare("SELECT COUNT(*) AS n FROM outbox").get()).toEqual({ n: 0 });
    } finally {
      await off.close();
    }
  });

  it("has no /dev routes and keeps no code in the outbox", async () => {
    const off = await startServer({ devOutbox: false });
    // An operator's own sender (as setEmailSender plugs one) delivers while the dev outbox is off.
    setEmailSender(off.up.ctx, { send: async () => "sent" });
    try {
      const r = await fetch(off.base + "/dev/outbox?to=someone@example.com");
      expect(r.status).toBe(404);
      expect((await fetch(off.base + "/dev/captcha?id=abc")).status).toBe(404);
      expect(
        (await off.post("/api/notify/send_email", { to: "someone@example.com", type: 1 })).code,
      ).toBe(1);
      const row = off.up.ctx.db.prepare("SELECT code, body, status FROM outbox").get() as {
        code: string | null;
        body: string;
        status: string;
      };
      expect(row.code).toBeNull();
      expect(row.body).toContain("******");
      expect(row.body).not.toMatch(/\d{6}/);
      expect(row.status).toBe("sent");
    } finally {
      await off.close();
    }
  });
});

describe("outbox retention", () => {
  it("deletes messages older than 15 minutes (failed ones stay) when a message is written", async () => {
    const db = s.up.ctx.db;
    const add = db.prepare(
      "INSERT INTO outbox (channel, recipient, purpose, code, body, status, created_at) VALUES ('email', ?, 1, '111111', 'code 111111', ?, ?)",
    );
    const old = Date.now() - OUTBOX_RETENTION_MS - 1000;
    add.run("old-sent@example.com", "sent", old);
    add.run("old-stored@example.com", "stored", old);
    add.run("old-failed@example.com", "failed", old);
    add.run("recent@example.com", "stored", Date.now() - OUTBOX_RETENTION_MS + 60_000);
    expect(OUTBOX_RETENTION_MS).toBe(15 * 60 * 1000);
    expect(
      (await s.post("/api/notify/send_email", { to: "retention@example.com", type: 1 })).code,
    ).toBe(1);
    const left = db
      .prepare(
        "SELECT recipient FROM outbox WHERE recipient LIKE '%@example.com' AND recipient IN (?, ?, ?, ?, ?)",
      )
      .all(
        "old-sent@example.com",
        "old-stored@example.com",
        "old-failed@example.com",
        "recent@example.com",
        "retention@example.com",
      )
      .map((r: any) => r.recipient)
      .sort();
    expect(left).toEqual(["old-failed@example.com", "recent@example.com", "retention@example.com"]);
  });
});

describe("SMTP delivery", () => {
  /** A minimal SMTP server that records the DATA of each message it accepts. */
  async function smtpServer(): Promise<{
    port: number;
    messages: string[];
    close(): Promise<void>;
  }> {
    const net = await import("node:net");
    const messages: string[] = [];
    const server = net.createServer((sock) => {
      let buf = "";
      let inData = false;
      sock.write("220 test ESMTP\r\n");
      sock.on("data", (chunk) => {
        buf += chunk.toString("utf8");
        for (;;) {
          if (inData) {
            const end = buf.indexOf("\r\n.\r\n");
            if (end < 0) return;
            messages.push(buf.slice(0, end));
            buf = buf.slice(end + 5);
            inData = false;
            sock.write("250 queued\r\n");
            continue;
          }
          const nl = buf.indexOf("\r\n");
          if (nl < 0) return;
          const line = buf.slice(0, nl).toUpperCase();
          buf = buf.slice(nl + 2);
          if (line.startsWith("EHLO") || line.startsWith("HELO")) sock.write("250 test\r\n");
          else if (line.startsWith("DATA")) {
            inData = true;
            sock.write("354 go ahead\r\n");
          } else if (line.startsWith("QUIT")) sock.end("221 bye\r\n");
          else sock.write("250 ok\r\n");
        }
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const port = (server.address() as { port: number }).port;
    return { port, messages, close: () => new Promise<void>((r) => server.close(() => r())) };
  }

  it("delivers the code by SMTP when smtpUrl is set, in the request's language", async () => {
    const smtp = await smtpServer();
    const up = await startServer({ smtpUrl: `smtp://127.0.0.1:${smtp.port}`, devOutbox: false });
    try {
      const r = await up.post(
        "/api/notify/send_email",
        { to: "mail@example.com", type: 1 },
        { lang: "de" },
      );
      expect(r.code).toBe(1);
      expect(smtp.messages).toHaveLength(1);
      const raw = smtp.messages[0];
      expect(raw).toMatch(/To: mail@example\.com/);
      const decoded = raw
        .replace(/=\r\n/g, "")
        .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
      expect(Buffer.from(decoded, "latin1").toString("utf8")).toMatch(
        /Ihr Bestätigungscode lautet \d{6}/,
      );
      const row = up.up.ctx.db.prepare("SELECT status, sent_at FROM outbox").get() as {
        status: string;
        sent_at: number;
      };
      expect(row.status).toBe("sent");
      expect(row.sent_at).toBeGreaterThan(0);
    } finally {
      await up.close();
      await smtp.close();
    }
  });

  it("answers a translated failure and applies no resend wait when the mail server is down", async () => {
    const smtp = await smtpServer();
    const port = smtp.port;
    await smtp.close();
    const up = await startServer({ smtpUrl: `smtp://127.0.0.1:${port}`, devOutbox: false });
    try {
      const r = await up.post("/api/notify/send_email", { to: "mail@example.com", type: 1 });
      expect(r).toMatchObject({
        code: 0,
        msg: "The message could not be sent, please try again later",
      });
      expect(
        (up.up.ctx.db.prepare("SELECT status FROM outbox").get() as { status: string }).status,
      ).toBe("failed");
      expect(
        (up.up.ctx.db.prepare("SELECT COUNT(*) AS n FROM verify_codes").get() as { n: number }).n,
      ).toBe(0);
      expect(
        (await up.post("/api/notify/send_email", { to: "mail@example.com", type: 1 })).msg,
      ).not.toMatch(/wait/i);
    } finally {
      await up.close();
    }
  });
});

describe("robustness", () => {
  it("answers every odd input to the account calls with an envelope, never a 500", async () => {
    const fc = await import("fast-check");
    const paths = [
      "/api/notify/send_email",
      "/api/notify/send_sms",
      "/api/user/register",
      "/api/user/loginForU",
      "/api/user/amend_password",
      "/api/user/forget_password",
      "/api/user/logout",
    ];
    const keys = [
      "to",
      "type",
      "area_id",
      "account",
      "password",
      "re_password",
      "sms_code",
      "invite_code",
      "mobile",
      "login_type",
      "demo_id",
      "new_password",
      "secondary_password",
      "auth_code",
      "captcha_id",
      "captcha_code",
    ];
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.constantFrom(
        "1",
        "2",
        "email",
        "mobile",
        "",
        "alice@example.com",
        "0".repeat(32),
        "123456",
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...paths),
        fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 8 }),
        fc.boolean(),
        async (p, body, json) => {
          const h: Record<string, string> = {
            "content-type": json ? "application/json" : "application/x-www-form-urlencoded",
          };
          const res = await fetch(s.base + p, {
            method: "POST",
            headers: h,
            body: json ? JSON.stringify(body) : new URLSearchParams(body).toString(),
          });
          expect(res.status).toBeLessThan(500);
          const env = (await res.json()) as { code: number; msg: string };
          expect(env.code).not.toBe(500);
          expect(typeof env.msg).toBe("string");
        },
      ),
      { numRuns: 120, seed: runSeed(20261106) },
    );
  });
});
