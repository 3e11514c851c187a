/** Shared set-up of the account and settings integration tests: a fresh upstream on a temp db, and account steps. */
import type { UpstreamConfig } from "../../upstream/platform/config.js";
import { startUpstream, type Env, type Server, type StartOptions } from "./upstream-harness.js";

export type { Env, Server };

/**
 * An upstream with the dev outbox on (codes readable at /dev/outbox), no simulator timer and no SMTP;
 * on a new store, or on `store` (a restart).
 */
export function startServer(
  overrides: Partial<UpstreamConfig> = {},
  store?: StartOptions["store"],
): Promise<Server> {
  return startUpstream({
    tmpPrefix: "tp-acc-",
    store,
    config: { devOutbox: true, simulate: false, smtpUrl: null, ...overrides },
  });
}

/** Lets the 60 s resend wait of an address pass by ageing its codes in the database. */
export function ageCodes(s: Server, ms = 61_000): void {
  s.up.ctx.db.prepare("UPDATE verify_codes SET created_at = created_at - ?").run(ms);
}

/** Sends a code to an e-mail and reads it back from /dev/outbox. */
export async function emailCode(s: Server, to: string, type: 1 | 2): Promise<string> {
  const sent = await s.post("/api/notify/send_email", { to, type });
  if (sent.code !== 1) throw new Error(`send_email failed: ${sent.msg}`);
  const box = await s.get<{ code: string }>(`/dev/outbox?to=${encodeURIComponent(to)}`);
  if (box.code !== 1) throw new Error(`outbox failed: ${box.msg}`);
  return box.data.code;
}

/** Registers an e-mail account with a real code from the outbox; returns nothing (register does not log in). */
export async function registerEmail(
  s: Server,
  email: string,
  pw = "Secret-1234",
  extra: Record<string, string> = {},
): Promise<void> {
  const code = await emailCode(s, email, 1);
  const r = await s.post("/api/user/register", {
    type: "email",
    account: email,
    password: pw,
    re_password: pw,
    sms_code: code,
    ...extra,
  });
  if (r.code !== 1) throw new Error(`register failed: ${r.msg}`);
}

export async function loginEmail(
  s: Server,
  email: string,
  pw = "Secret-1234",
): Promise<Env<{ token: string; user: any }>> {
  return s.post("/api/user/loginForU", { account: email, password: pw, login_type: "email" });
}

/** A new demo account's session token. */
export async function demoToken(s: Server): Promise<string> {
  const c = await s.post("/api/user/createAccountDemoForU", {});
  return (await s.post("/api/user/loginForU", { demo_id: c.data.demo_id })).data.token;
}
