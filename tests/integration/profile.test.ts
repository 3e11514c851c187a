/**
 * The profile calls over real HTTP on a fresh database: the password-change code sent to the
 * account's own address (then amend_password ends the other sessions), binding an e-mail to a
 * mobile account, the invite figures, and the demo refusals.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ageCodes,
  loginEmail,
  registerEmail,
  startServer,
  type Server,
} from "./accounts-helpers.js";

let s: Server;
let demoToken = "";
beforeAll(async () => {
  s = await startServer();
  const demo = await s.post<{ demo_id: string }>("/api/user/createAccountDemoForU", {});
  const login = await s.post<{ token: string }>("/api/user/loginForU", {
    demo_id: demo.data.demo_id,
  });
  demoToken = login.data.token;
});
afterAll(async () => {
  await s.close();
});

const outboxCode = async (to: string) =>
  (await s.get<{ code: string; type: number }>(`/dev/outbox?to=${encodeURIComponent(to)}`)).data;

/** Registers a mobile account (HK area) and signs it in; returns its token. */
async function mobileAccount(digits: string): Promise<string> {
  const areas = await s.get<{ id: number; code: string }[]>("/api/default/area_list");
  const hk = areas.data.find((a) => a.code === "HK")!;
  expect((await s.post("/api/notify/send_sms", { to: digits, area_id: hk.id, type: 1 })).code).toBe(
    1,
  );
  const reg = await s.post("/api/user/register", {
    type: "mobile",
    area_id: hk.id,
    mobile: digits,
    password: "Secret-1234",
    re_password: "Secret-1234",
    sms_code: (await outboxCode(digits)).code,
  });
  expect(reg.code).toBe(1);
  const login = await s.post<{ token: string }>("/api/user/loginForU", {
    account: digits,
    password: "Secret-1234",
    login_type: "mobile",
    area_id: hk.id,
  });
  return login.data.token;
}

describe("send_own_code and amend_password", () => {
  it("sends the code to the account's own e-mail (no address is read from the request) and revokes only the other sessions", async () => {
    const email = "own-code@example.com";
    await registerEmail(s, email);
    const keep = (await loginEmail(s, email)).data.token;
    const other = (await loginEmail(s, email)).data.token;
    ageCodes(s);
    // A `to` field is ignored: the code goes to the account's own address.
    const sent = await s.post(
      "/api/user/send_own_code",
      { to: "attacker@example.com" },
      { token: keep },
    );
    expect(sent).toMatchObject({ code: 1, data: { resend_in: 60 } });
    expect((await s.get("/dev/outbox?to=attacker@example.com")).code).not.toBe(1);
    const box = await outboxCode(email);
    expect(box.type).toBe(2);

    // The resend wait applies to the own-address send too.
    const again = await s.post("/api/user/send_own_code", {}, { token: keep });
    expect(again.code).toBe(0);

    const mismatch = await s.post(
      "/api/user/amend_password",
      { new_password: "Newpass-77", re_password: "Newpass-78", auth_code: box.code },
      { token: keep },
    );
    expect(mismatch.msg).toBe("The passwords do not match");
    const changed = await s.post(
      "/api/user/amend_password",
      { new_password: "Newpass-77", re_password: "Newpass-77", auth_code: box.code },
      { token: keep },
    );
    expect(changed.code).toBe(1);
    expect((await s.get("/api/user/info", { token: keep })).code).toBe(1);
    expect((await s.get("/api/user/info", { token: other })).code).toBe(999);
    expect((await loginEmail(s, email)).code).toBe(0);
    expect((await loginEmail(s, email, "Newpass-77")).code).toBe(1);
  });

  it("refuses an address the account does not have, an unknown type, no session and demo accounts", async () => {
    const email = "own-code-2@example.com";
    await registerEmail(s, email);
    const token = (await loginEmail(s, email)).data.token;
    const noMobile = await s.post("/api/user/send_own_code", { type: "mobile" }, { token });
    expect(noMobile).toMatchObject({
      code: 0,
      msg: "This account has no such address to send a code to",
    });
    expect((await s.post("/api/user/send_own_code", { type: "fax" }, { token })).code).toBe(0);
    expect((await s.post("/api/user/send_own_code", {})).code).toBe(999);
    const demo = await s.post("/api/user/send_own_code", {}, { token: demoToken });
    expect(demo).toMatchObject({ code: 0, msg: "Please register or log in to a real account" });
  });

  it("sends to the own mobile of a mobile account", async () => {
    const token = await mobileAccount("61112222");
    ageCodes(s);
    expect((await s.post("/api/user/send_own_code", {}, { token })).code).toBe(1);
    expect((await outboxCode("61112222")).type).toBe(2);
  });
});

describe("bind_email", () => {
  it("binds an e-mail to a mobile account with the code sent to that e-mail; taken and bound addresses are refused", async () => {
    const token = await mobileAccount("62223333");
    await registerEmail(s, "taken@example.com");

    const taken = await s.post(
      "/api/user/send_bind_email_code",
      { email: "Taken@Example.com" },
      { token },
    );
    expect(taken).toMatchObject({
      code: 0,
      msg: "This e-mail address is already used by another account",
    });
    const bad = await s.post("/api/user/send_bind_email_code", { email: "nope" }, { token });
    expect(bad).toMatchObject({ code: 0, msg: "Please enter a valid e-mail address" });

    const email = "bound@example.com";
    expect((await s.post("/api/user/send_bind_email_code", { email }, { token })).code).toBe(1);
    const box = await outboxCode(email);
    expect(box.type).toBe(3);
    // A sign-up code or a wrong code does not bind.
    const wrong = await s.post(
      "/api/user/bind_email",
      { email, auth_code: box.code === "000000" ? "111111" : "000000" },
      { token },
    );
    expect(wrong.msg).toBe("The verification code is incorrect");
    const missing = await s.post("/api/user/bind_email", { email }, { token });
    expect(missing.code).toBe(0);
    expect((await s.get<{ email: string | null }>("/api/user/info", { token })).data.email).toBe(
      null,
    );

    const ok = await s.post("/api/user/bind_email", { email, auth_code: box.code }, { token });
    expect(ok).toMatchObject({ code: 1, msg: "E-mail address added" });
    expect((await s.get<{ email: string | null }>("/api/user/info", { token })).data.email).toBe(
      email,
    );
    // Signs in by the new e-mail too.
    expect((await loginEmail(s, email)).code).toBe(1);
    // Once bound, another bind is refused.
    const twice = await s.post(
      "/api/user/send_bind_email_code",
      { email: "second@example.com" },
      { token },
    );
    expect(twice).toMatchObject({ code: 0, msg: "This account already has an e-mail address" });
  });

  it("refuses when another account took the address after the code was sent", async () => {
    const token = await mobileAccount("63334444");
    const email = "race@example.com";
    expect((await s.post("/api/user/send_bind_email_code", { email }, { token })).code).toBe(1);
    const code = (await outboxCode(email)).code;
    ageCodes(s);
    await registerEmail(s, email);
    const r = await s.post("/api/user/bind_email", { email, auth_code: code }, { token });
    expect(r.msg).toBe("This e-mail address is already used by another account");
  });

  it("refuses demo accounts and no session", async () => {
    const demo = await s.post(
      "/api/user/bind_email",
      { email: "demo-bind@example.com", auth_code: "123456" },
      { token: demoToken },
    );
    expect(demo).toMatchObject({ code: 0, msg: "Please register or log in to a real account" });
    expect(
      (
        await s.post(
          "/api/user/send_bind_email_code",
          { email: "demo-bind@example.com" },
          { token: demoToken },
        )
      ).code,
    ).toBe(0);
    expect((await s.post("/api/user/bind_email", { email: "x@example.com" })).code).toBe(999);
  });
});

describe("invite_info", () => {
  it("counts the real accounts registered with the code", async () => {
    const email = "inviter@example.com";
    await registerEmail(s, email);
    const token = (await loginEmail(s, email)).data.token;
    const before = await s.get<{ invite_code: string; invited_count: number }>(
      "/api/user/invite_info",
      { token },
    );
    expect(before.data.invite_code).toMatch(/^[A-Z2-9]{6}$/);
    expect(before.data.invited_count).toBe(0);
    const code = before.data.invite_code;
    await registerEmail(s, "invitee-1@example.com", "Secret-1234", { invite_code: code });
    await registerEmail(s, "invitee-2@example.com", "Secret-1234", {
      invite_code: code.toLowerCase(),
    });
    await registerEmail(s, "not-invited@example.com");
    const after = await s.get<{ invited_count: number }>("/api/user/invite_info", { token });
    expect(after.data.invited_count).toBe(2);
  });

  it("refuses demo accounts and no session", async () => {
    expect((await s.get("/api/user/invite_info", { token: demoToken })).msg).toBe(
      "Please register or log in to a real account",
    );
    expect((await s.get("/api/user/invite_info")).code).toBe(999);
  });
});
