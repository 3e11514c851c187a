/**
 * Settings changed as an operator team changes them: through the upstream's operator API with the
 * OPERATOR_TOKEN playwright.config.ts gives the server (the value is checked like any operator's);
 * a change that needs a second operator (four-eyes: an abuse limit, the captcha, the support link)
 * is then approved by another operator, an admin account this process makes and signs in once.
 */
import { execFileSync } from "node:child_process";
import { nodeArgsFor } from "../support/node-bundle";
import { generate } from "otplib";
import type { OperatorRole } from "../../contract/operators";
import { isPendingApproval } from "../../contract/api/admin";

export const E2E_OPERATOR_TOKEN = "e2e-operator-token-0123456789abcdef";

export async function operatorSetting(key: string, value: string): Promise<void> {
  await operatorPost("/settings", { key, value });
}

/** Books a signed adjustment on a user (by uid), as an operator does through the operator API. */
export async function operatorAdjust(uid: string, amount: string, remark: string): Promise<void> {
  await operatorPost("/adjustments", { uid, amount, remark });
}

/** An operator's POST to the upstream's operator API (/admin/api/...); fails unless accepted. */
export async function operatorPost(
  path: string,
  body: Record<string, string> = {},
): Promise<unknown> {
  const upstream = process.env.E2E_UPSTREAM_URL;
  if (!upstream) throw new Error("E2E_UPSTREAM_URL is not set (playwright.config.ts sets it)");
  const res = await fetch(`${upstream}/admin/api${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${E2E_OPERATOR_TOKEN}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(body).toString(),
  });
  const answer = (await res.json()) as { code: number; msg: string; data: unknown };
  if (answer.code !== 1) throw new Error(`${path} refused: ${answer.msg}`);
  if (isPendingApproval(answer.data))
    return approveAsSecondOperator(answer.data.pending_request.id);
  return answer.data;
}

/** An operator's GET on the upstream's operator API (/admin/api/...); its data, fails unless answered. */
export async function operatorGet<T>(path: string): Promise<T> {
  const upstream = process.env.E2E_UPSTREAM_URL;
  if (!upstream) throw new Error("E2E_UPSTREAM_URL is not set (playwright.config.ts sets it)");
  const res = await fetch(`${upstream}/admin/api${path}`, {
    headers: { authorization: `Bearer ${E2E_OPERATOR_TOKEN}` },
  });
  const answer = (await res.json()) as { code: number; msg: string; data: T };
  if (answer.code !== 1) throw new Error(`${path} refused: ${answer.msg}`);
  return answer.data;
}

/**
 * Approves the waiting real-name verification request with this id number, as an operator does
 * from the queue (GET /admin/api/real_names, oldest first, a page at a time; then approve).
 */
export async function approveRealName(cardId: string): Promise<void> {
  for (let page = 1; page <= 50; page++) {
    const { data } = await operatorGet<{ data: { id: number; card_id: string }[] }>(
      `/real_names?review_status=1&page=${page}`,
    );
    const request = data.find((r) => r.card_id === cardId.toUpperCase());
    if (request) {
      await operatorPost(`/real_names/${request.id}/approve`);
      return;
    }
    if (data.length === 0) break;
  }
  throw new Error(`no waiting verification request with id number ${cardId}`);
}

let approver: Promise<string> | null = null;

/** The bearer token of this process's second operator (an admin), signed in once. */
function approverToken(): Promise<string> {
  approver ??= (async () => {
    const op = createOperatorAccount(`e2e-approver-${process.pid}-${Date.now().toString(36)}`);
    const r = await upstreamCall("/admin/api/login", "", {
      name: op.name,
      password: op.password,
      code: await generate({ secret: op.secret }),
    });
    return (r as { token: string }).token;
  })();
  return approver;
}

/** Approves a pending four-eyes request as the second operator; the approved request. */
export async function approveAsSecondOperator(id: number): Promise<unknown> {
  return upstreamCall(`/admin/api/requests/${id}/approve`, `Bearer ${await approverToken()}`, {
    remark: "Checked (e2e second operator)",
  });
}

async function upstreamCall(
  path: string,
  authorization: string,
  body: Record<string, string>,
): Promise<unknown> {
  const upstream = process.env.E2E_UPSTREAM_URL;
  if (!upstream) throw new Error("E2E_UPSTREAM_URL is not set (playwright.config.ts sets it)");
  const res = await fetch(upstream + path, {
    method: "POST",
    headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body).toString(),
  });
  const answer = (await res.json()) as { code: number; msg: string; data: unknown };
  if (answer.code !== 1) throw new Error(`${path} refused: ${answer.msg}`);
  return answer.data;
}

/**
 * Ticks an instrument at a price on the e2e server's hand-driven market (MARKET_FEED=manual in
 * playwright.config.ts: prices move only when a test sets them). Answers the tick's rounded price.
 */
export async function setPrice(code: string, price: string): Promise<number> {
  const upstream = process.env.E2E_UPSTREAM_URL;
  if (!upstream) throw new Error("E2E_UPSTREAM_URL is not set (playwright.config.ts sets it)");
  const res = await fetch(`${upstream}/dev/market/price`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${E2E_OPERATOR_TOKEN}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ code, price }).toString(),
  });
  const answer = (await res.json()) as { code: number; msg: string; data: { price: number } };
  if (answer.code !== 1) throw new Error(`price ${code} ${price} refused: ${answer.msg}`);
  return answer.data.price;
}

/** An operator account made as an operator makes one: `npm run operator -- add NAME --role ROLE`. */
export interface OperatorAccount {
  name: string;
  role: OperatorRole;
  password: string;
  /** The TOTP secret of the otpauth:// URI the command prints. */
  secret: string;
}

/**
 * Runs the operator command against the e2e server's store (DATA_DIR of playwright.config.ts) and
 * reads the one-time password and the otpauth URI's secret from what it prints.
 */
export function createOperatorAccount(name: string, role: OperatorRole = "admin"): OperatorAccount {
  const out = operatorCommand("add", name, "--role", role);
  const password = /Password \(shown once\): (\S+)/.exec(out)?.[1];
  const uri = /(otpauth:\/\/\S+)/.exec(out)?.[1];
  const secret = uri ? new URL(uri).searchParams.get("secret") : null;
  if (!password || !secret) throw new Error(`unexpected output of the operator command: ${out}`);
  return { name, role, password, secret };
}

/** `npm run operator -- disable NAME`: the operator's sign-ins end at once. */
export function disableOperatorAccount(name: string): void {
  operatorCommand("disable", name);
}

/** `npm run operator -- role NAME ROLE`: a new role; the operator's sign-ins end at once. */
export function setOperatorAccountRole(name: string, role: OperatorRole): void {
  operatorCommand("role", name, role);
}

function operatorCommand(cmd: "add" | "disable" | "role", name: string, ...rest: string[]): string {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error("E2E_DATA_DIR is not set (playwright.config.ts sets it)");
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir };
  delete env.UPSTREAM_DB;
  const out = execFileSync(process.execPath, [...nodeArgsFor("operator"), cmd, name, ...rest], {
    env,
    encoding: "utf8",
    timeout: 30_000,
  });
  return out;
}
