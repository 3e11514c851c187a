/**
 * The account's safety over real HTTP on a fresh database: two-factor sign-in (set-up confirmed by
 * a first code, the second sign-in step, a code accepted once, backup codes used once, wrong codes
 * limited, turning off with the password), a withdrawal address that needs a code, the session list
 * (end one, end the others, their websocket logins revoked) and the new-device notice.
 *
 * A TOTP code is valid for its 30 s step and one step either side, and a step once used cannot be
 * used again; "time passing" is written into the store (the last accepted step moved back), as
 * accounts-helpers' ageCodes does for e-mail codes, so no test waits on the clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate } from "otplib";
import { DRAW_TYPE } from "@contract/enums";
import { BACKUP_CODE_COUNT } from "@contract/api/security";
import { registerEmail, type Server } from "./accounts-helpers.js";
import { startUpstream } from "./upstream-harness.js";
import { Client } from "./ws-client.js";
import { createOperator, currentCode } from "../../upstream/modules/operators/accounts.js";
import { sealingKeyOf } from "../../upstream/modules/identity/security-routes.js";

const PHONE_UA =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";
const DESKTOP_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Safari/605.1.15";
const TRON = "TYEdLavhN1T2vudp9z5dVpbb6MEJ7bMNd3";

let s: Server;
let seq = 0;

beforeAll(async () => {
  s = await startUpstream({
    tmpPrefix: "tp-security-",
    config: { devOutbox: true, smtpUrl: null, simulate: false, rateLimit: true },
  });
}, 60_000);

afterAll(async () => {
  await s?.close();
});

const ua = (agent: string) => ({ "user-agent": agent });

/** A new real account signed in from the phone; its e-mail, token and id. */
async function account(): Promise<{ email: string; token: string; id: number }> {
  const email = `security${++seq}-${process.pid}@example.com`;
  await registerEmail(s, email);
  const l = await s.post(
    "/api/user/loginForU",
    { account: email, password: "Secret-1234", login_type: "email", device: "phone-1" },
    { headers: ua(PHONE_UA) },
  );
  expect(l.code).toBe(1);
  return { email, token: l.data.token, id: Number(l.data.user.id) };
}

/** The app's code `steps` periods from now. */
const codeAt = (secret: string, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** As if a minute had passed since the account's last accepted code. */
function ageSteps(userId: number): void {
  s.up.ctx.db
    .prepare("UPDATE user_two_factor SET last_step = last_step - 4 WHERE user_id = ?")
    .run(userId);
}

/** Turns two-factor on; the secret and the backup codes. */
async function turnOn(token: string): Promise<{ secret: string; backup: string[] }> {
  const setup = await s.post("/api/user/two_factor_setup", {}, { token });
  expect(setup.code).toBe(1);
  const secret = setup.data.setup.secret as string;
  expect(setup.data.setup.uri).toMatch(/^otpauth:\/\/totp\/Tradepost:.+secret=/);
  const on = await s.post("/api/user/two_factor_enable", { code: await codeAt(secret) }, { token });
  expect(on.code).toBe(1);
  return { secret, backup: on.data.backup_codes };
}

/** The password step of a sign-in: its answer (a session, or a challenge). */
const passwordStep = (email: string, agent = PHONE_UA, device = "phone-1") =>
  s.post(
    "/api/user/loginForU",
    { account: email, password: "Secret-1234", login_type: "email", device },
    { headers: ua(agent) },
  );

describe("two-factor sign-in", () => {
  it("is set up with a first code, then a sign-in needs a code after the password", async () => {
    const a = await account();
    const off = await s.get("/api/user/two_factor", { token: a.token });
    expect(off.data).toEqual({ enabled: false, setup: null, backup_codes_left: 0 });

    const setup = await s.post("/api/user/two_factor_setup", {}, { token: a.token });
    const secret = setup.data.setup.secret;
    // A waiting set-up is not in force: the password alone still signs in.
    expect((await passwordStep(a.email)).data.token).toMatch(/^[0-9a-f]{32}$/);
    const wrong = await s.post(
      "/api/user/two_factor_enable",
      { code: "000000" },
      { token: a.token },
    );
    expect(wrong).toMatchObject({ code: 0, msg: "That code is wrong or has been used already" });
    const on = await s.post(
      "/api/user/two_factor_enable",
      { code: await codeAt(secret) },
      { token: a.token },
    );
    expect(on.msg).toBe("Two-factor sign-in is on. Keep your backup codes somewhere safe");
    expect(on.data.backup_codes).toHaveLength(BACKUP_CODE_COUNT);
    expect(new Set(on.data.backup_codes).size).toBe(BACKUP_CODE_COUNT);
    const status = await s.get("/api/user/two_factor", { token: a.token });
    expect(status.data).toEqual({ enabled: true, setup: null, backup_codes_left: 10 });
    // Only hashes are kept.
    const stored = s.up.ctx.db
      .prepare("SELECT code_hash FROM user_backup_codes WHERE user_id = ?")
      .all(a.id) as { code_hash: string }[];
    expect(stored.map((r) => r.code_hash)).not.toContain(on.data.backup_codes[0]);
    // A set-up cannot replace the secret in force.
    expect((await s.post("/api/user/two_factor_setup", {}, { token: a.token })).msg).toBe(
      "Two-factor sign-in is already on",
    );

    const first = await passwordStep(a.email);
    expect(first.code).toBe(1);
    expect(first.msg).toBe("Enter the code from your authenticator app");
    expect(first.data.token).toBeUndefined();
    const challenge = first.data.second_factor.challenge;
    expect(first.data.second_factor.expires_in).toBe(300);
    const bad = await s.post("/api/user/login_second_factor", { challenge, code: "123456" });
    expect(bad).toMatchObject({ code: 0, data: null });
    const code = await codeAt(secret, 1);
    const done = await s.post("/api/user/login_second_factor", { challenge, code });
    expect(done.code).toBe(1);
    expect(done.data.token).toMatch(/^[0-9a-f]{32}$/);
    expect(done.data.user.email).toBe(a.email);
    // The challenge signs in once.
    const again = await s.post("/api/user/login_second_factor", { challenge, code });
    expect(again.msg).toBe("The sign-in timed out. Please enter your password again");
    // The same code on a new challenge: refused (no replay within its window).
    const second = await passwordStep(a.email);
    const replay = await s.post("/api/user/login_second_factor", {
      challenge: second.data.second_factor.challenge,
      code,
    });
    expect(replay.msg).toBe("That code is wrong or has been used already");
  });

  it("accepts each backup code once, and new backup codes replace the old ones", async () => {
    const a = await account();
    const { secret, backup } = await turnOn(a.token);
    const signInWith = async (code: string) => {
      const p = await passwordStep(a.email);
      return s.post("/api/user/login_second_factor", {
        challenge: p.data.second_factor.challenge,
        code,
      });
    };
    // Typed in capitals and without its dash, as people copy it.
    expect((await signInWith(backup[0].replace("-", "").toUpperCase())).code).toBe(1);
    expect((await signInWith(backup[0])).msg).toBe("That code is wrong or has been used already");
    expect((await s.get("/api/user/two_factor", { token: a.token })).data.backup_codes_left).toBe(
      9,
    );

    ageSteps(a.id);
    const renewed = await s.post(
      "/api/user/two_factor_backup_codes",
      { code: await codeAt(secret) },
      { token: a.token },
    );
    expect(renewed.code).toBe(1);
    expect(renewed.data.backup_codes).toHaveLength(10);
    expect((await signInWith(backup[1])).code).toBe(0);
    expect((await signInWith(renewed.data.backup_codes[1])).code).toBe(1);
  });

  it("refuses codes that are not six digits or a backup code, before anything is read", async () => {
    const a = await account();
    const r = await s.post("/api/user/two_factor_enable", { code: "12ab" }, { token: a.token });
    expect(r.code).toBe(0);
    expect(r.msg).toMatch(/6-digit code/);
  });

  it("limits wrong codes: after 5, even the right code is refused for 15 minutes", async () => {
    const a = await account();
    const { secret } = await turnOn(a.token);
    const p = await passwordStep(a.email);
    const challenge = p.data.second_factor.challenge;
    for (let i = 0; i < 5; i++) {
      const r = await s.post("/api/user/login_second_factor", { challenge, code: "000000" });
      expect(r.msg).toBe("That code is wrong or has been used already");
    }
    const right = await s.post("/api/user/login_second_factor", {
      challenge,
      code: await codeAt(secret, 1),
    });
    expect(right).toMatchObject({ code: 429, data: null });
    expect(right.msg).toMatch(/too many/i);
  });

  it("is turned off with a code and the password; then the password alone signs in", async () => {
    const a = await account();
    const { secret } = await turnOn(a.token);
    ageSteps(a.id);
    const wrongPassword = await s.post(
      "/api/user/two_factor_disable",
      { code: await codeAt(secret), password: "Wrong-1234" },
      { token: a.token },
    );
    expect(wrongPassword.msg).toBe("The password is wrong");
    const off = await s.post(
      "/api/user/two_factor_disable",
      { code: await codeAt(secret), password: "Secret-1234" },
      { token: a.token },
    );
    expect(off.msg).toBe("Two-factor sign-in is off");
    expect((await passwordStep(a.email)).data.token).toMatch(/^[0-9a-f]{32}$/);
  });

  it("a new withdrawal address needs a code while two-factor is on", async () => {
    const a = await account();
    const coins = await s.get(`/api/account/draw_symbol_list?type=${DRAW_TYPE.ADDRESS}`, {
      token: a.token,
    });
    const trc = coins.data.find((c: any) => c.protocol === "TRC20");
    const bind = (extra: Record<string, string>) =>
      s.post(
        "/api/wallet/bind_draw_method",
        { type: DRAW_TYPE.ADDRESS, draw_id: trc.id, dc_address: TRON, ...extra },
        { token: a.token },
      );
    const { secret } = await turnOn(a.token);
    expect((await bind({})).msg).toBe(
      "Enter the code from your authenticator app, or a backup code",
    );
    expect((await bind({ totp_code: "000000" })).msg).toBe(
      "That code is wrong or has been used already",
    );
    expect((await bind({ totp_code: await codeAt(secret, 1) })).msg).toBe("Account added");
    // A withdrawal is refused without its code before anything else is read.
    const draw = await s.post(
      "/api/account/draw",
      { draw_currency_id: trc.id, number: "10", draw_method_id: 1 },
      { token: a.token },
    );
    expect(draw.msg).toBe("Enter the code from your authenticator app, or a backup code");
  });
});

describe("sessions", () => {
  it("lists the account's sessions with device and address, and ends one or all others", async () => {
    const a = await account();
    const desk = await passwordStep(a.email, DESKTOP_UA, "desk-1");
    const deskToken = desk.data.token;
    const list = await s.get("/api/user/sessions", { token: a.token });
    expect(list.data).toHaveLength(2);
    const [mine] = list.data.filter((x: any) => x.current);
    const [other] = list.data.filter((x: any) => !x.current);
    expect(mine.device).toBe("Chrome 120 · Android 14");
    expect(other.device).toBe("Safari 17 · macOS 14.2");
    expect(other.ip).toBe("127.0.0.1");
    expect(other.user_agent).toBe(DESKTOP_UA);

    // The desk session's live stream is signed in; ending the session revokes it.
    const ws = await Client.open(s.base.replace(/^http/, "ws") + "/v1/ws");
    ws.send({ op: "login", token: deskToken });
    const login = await ws.next((m) => m.op === "login");
    expect(login.code, JSON.stringify(ws.msgs)).toBe(1);
    const from = ws.msgs.length;
    const ended = await s.post("/api/user/session_end", { id: other.id }, { token: a.token });
    expect(ended.msg).toBe("Session ended");
    expect((await ws.next((m) => m.op === "revoked", 3000, from)).code).toBe(999);
    ws.close();
    expect((await s.get("/api/user/info", { token: deskToken })).code).toBe(999);
    expect((await s.post("/api/user/session_end", { id: other.id }, { token: a.token })).msg).toBe(
      "That session has ended already",
    );

    await passwordStep(a.email, DESKTOP_UA, "desk-1");
    await passwordStep(a.email, DESKTOP_UA, "desk-1");
    const all = await s.post("/api/user/session_end_others", {}, { token: a.token });
    expect(all.data).toEqual({ ended: 2 });
    const left = await s.get("/api/user/sessions", { token: a.token });
    expect(left.data.map((x: any) => x.current)).toEqual([true]);
  });

  it("cannot end another account's session", async () => {
    const a = await account();
    const b = await account();
    const theirs = (await s.get("/api/user/sessions", { token: b.token })).data[0];
    const r = await s.post("/api/user/session_end", { id: theirs.id }, { token: a.token });
    expect(r.msg).toBe("That session has ended already");
    expect((await s.get("/api/user/info", { token: b.token })).code).toBe(1);
  });

  it("tells the account by e-mail of a sign-in from a device it has not used, once", async () => {
    const a = await account();
    const notices = () =>
      s.up.ctx.db
        .prepare("SELECT subject, body FROM outbox WHERE recipient = ? AND purpose = 0")
        .all(a.email) as { subject: string; body: string }[];
    // The device it signed up on, again: nothing.
    await passwordStep(a.email);
    expect(notices()).toHaveLength(0);
    await passwordStep(a.email, DESKTOP_UA, "desk-9");
    await expect.poll(() => notices().length).toBe(1);
    expect(notices()[0].subject).toBe("New sign-in to your Tradepost account");
    expect(notices()[0].body).toContain("Safari 17 · macOS 14.2");
    expect(notices()[0].body).toContain("127.0.0.1");
    await passwordStep(a.email, DESKTOP_UA, "desk-9");
    expect(notices()).toHaveLength(1);
  });
});

describe("support's reset of a user's two-factor sign-in", () => {
  /** An operator of `role`, signed in; the headers of their calls. */
  async function operator(name: string, role: "support" | "viewer") {
    const op = await createOperator(s.up.ctx.db, sealingKeyOf(s.up.ctx), name, role);
    const r = await s.post("/admin/api/login", {
      name,
      password: op.password,
      code: await currentCode(op.secret),
    });
    expect(r.code).toBe(1);
    return { headers: { authorization: `Bearer ${r.data.token}` } };
  }

  it("is filed by one support operator, carried out when a second approves: sessions end, audited, the user told", async () => {
    const a = await account();
    const uid = (await s.get("/api/user/info", { token: a.token })).data.uid as string;
    const first = await operator(`sup-a-${process.pid}`, "support");
    const second = await operator(`sup-b-${process.pid}`, "support");
    const viewer = await operator(`view-${process.pid}`, "viewer");
    const body = { uid, remark: "passport checked on a video call" };

    // Nothing to reset while it is off: refused, nothing filed.
    const off = await s.post("/admin/api/users/two_factor_reset", body, first);
    expect(off.msg).toBe("Two-factor sign-in is off");
    await turnOn(a.token);
    // A viewer may not ask for it.
    const refused = await s.post("/admin/api/users/two_factor_reset", body, viewer);
    expect(refused.code).not.toBe(1);

    const filed = await s.post("/admin/api/users/two_factor_reset", body, first);
    expect(filed.code).toBe(1);
    const request = filed.data.pending_request;
    expect(request.kind).toBe("two_factor.reset");
    // Still on until a second operator approves; the one who asked cannot.
    expect((await s.get("/api/user/two_factor", { token: a.token })).data.enabled).toBe(true);
    const own = await s.post(`/admin/api/requests/${request.id}/approve`, { remark: "ok" }, first);
    expect(own.code).not.toBe(1);

    const approved = await s.post(
      `/admin/api/requests/${request.id}/approve`,
      { remark: "identity confirmed" },
      second,
    );
    expect(approved.code).toBe(1);
    expect(approved.data.result).toEqual({ uid });
    // Every session ended: the user signs in with the password alone.
    expect((await s.get("/api/user/info", { token: a.token })).code).toBe(999);
    const again = await passwordStep(a.email);
    expect(again.data.token).toMatch(/^[0-9a-f]{32}$/);
    const status = await s.get("/api/user/two_factor", { token: again.data.token });
    expect(status.data.enabled).toBe(false);

    const audit = s.up.ctx.db
      .prepare(
        "SELECT actor, remark, request_id FROM audit WHERE action = 'user.two_factor_reset' AND user_id = ?",
      )
      .all(a.id) as { actor: string; remark: string; request_id: number }[];
    expect(audit).toEqual([
      {
        actor: `sup-b-${process.pid}`,
        remark: "passport checked on a video call",
        request_id: request.id,
      },
    ]);
    const mail = s.up.ctx.db
      .prepare(
        "SELECT subject, body FROM outbox WHERE recipient = ? AND purpose = 0 AND subject LIKE 'Two-factor%'",
      )
      .all(a.email) as { subject: string; body: string }[];
    expect(mail).toHaveLength(1);
    expect(mail[0].body).toContain(uid);
  });
});
