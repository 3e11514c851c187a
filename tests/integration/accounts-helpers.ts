/** Shared set-up of the account and settings integration tests: a fresh upstream on a temp db. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildUpstream, type Upstream } from "../../upstream/app.js";
import { loadConfig, type UpstreamConfig } from "../../upstream/config.js";

export interface Env<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

export interface Server {
  up: Upstream;
  base: string;
  dir: string;
  get<T = any>(p: string, opts?: { token?: string; lang?: string }): Promise<Env<T>>;
  post<T = any>(p: string, body?: Record<string, string | number>, opts?: { token?: string; lang?: string; json?: boolean }): Promise<Env<T>>;
  close(): Promise<void>;
}

export async function startServer(overrides: Partial<UpstreamConfig> = {}): Promise<Server> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tp-acc-"));
  const config = loadConfig({} as NodeJS.ProcessEnv, { port: 0, dbFile: path.join(dir, "up.sqlite"), rateLimit: false, devOutbox: true, simulate: false, smtpUrl: null, ...overrides });
  const up = await buildUpstream(config);
  const base = await up.listen();
  const headers = (opts: { token?: string; lang?: string } = {}) => {
    const h: Record<string, string> = {};
    if (opts.token) h.authorization = opts.token;
    if (opts.lang) h.lang = opts.lang;
    return h;
  };
  return {
    up,
    base,
    dir,
    async get(p, opts) {
      const r = await fetch(base + p, { headers: headers(opts) });
      return (await r.json()) as Env<any>;
    },
    async post(p, body = {}, opts = {}) {
      const h = headers(opts);
      let payload: string;
      if (opts.json) {
        h["content-type"] = "application/json";
        payload = JSON.stringify(body);
      } else {
        h["content-type"] = "application/x-www-form-urlencoded";
        payload = new URLSearchParams(Object.entries(body).map(([k, v]) => [k, String(v)])).toString();
      }
      const r = await fetch(base + p, { method: "POST", headers: h, body: payload });
      return (await r.json()) as Env<any>;
    },
    async close() {
      await up.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
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
export async function registerEmail(s: Server, email: string, pw = "secret123", extra: Record<string, string> = {}): Promise<void> {
  const code = await emailCode(s, email, 1);
  const r = await s.post("/api/user/register", { type: "email", account: email, password: pw, re_password: pw, sms_code: code, ...extra });
  if (r.code !== 1) throw new Error(`register failed: ${r.msg}`);
}

export async function loginEmail(s: Server, email: string, pw = "secret123"): Promise<Env<{ token: string; user: any }>> {
  return s.post("/api/user/loginForU", { account: email, password: pw, login_type: "email" });
}
