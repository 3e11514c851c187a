/**
 * A hand-driven copy-trading provider for the end-to-end specs, through the upstream's dev routes
 * (operator token, like setPrice in operator.ts): POST /dev/provider makes a provider funded like
 * the strategy traders but not traded by the strategy runner; /dev/provider/trade opens a market
 * position for it; /dev/provider/close closes all of its positions.
 */
import type { Provider } from "../../contract/api/copy";
import { E2E_OPERATOR_TOKEN } from "./operator";

async function devPost<T>(path: string, body: Record<string, string>): Promise<T> {
  const upstream = process.env.E2E_UPSTREAM_URL;
  if (!upstream) throw new Error("E2E_UPSTREAM_URL is not set (playwright.config.ts sets it)");
  const res = await fetch(`${upstream}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${E2E_OPERATOR_TOKEN}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams(body).toString(),
  });
  const answer = (await res.json().catch(() => null)) as {
    code: number;
    msg: string;
    data: T;
  } | null;
  if (!answer || answer.code !== 1)
    throw new Error(`${path} refused (HTTP ${res.status}): ${answer?.msg ?? "no envelope"}`);
  return answer.data;
}

/** Makes a hand-driven provider; its id. */
export async function devProvider(name: string): Promise<number> {
  const data = await devPost<{ id: number }>("/dev/provider", { name });
  return Number(data.id);
}

/** Opens a market position of the provider (side 1 buy, 2 sell); the order. */
export function devProviderTrade(
  id: number,
  code: string,
  side: 1 | 2,
  lots: string,
): Promise<unknown> {
  return devPost("/dev/provider/trade", {
    id: String(id),
    code,
    side: String(side),
    lots,
  });
}

/** Closes every open position of the provider. */
export function devProviderClose(id: number): Promise<unknown> {
  return devPost("/dev/provider/close", { id: String(id) });
}

/** The provider as copiers see it (GET /api/follow/provider). */
export async function providerOf(id: number): Promise<Provider> {
  const upstream = process.env.E2E_UPSTREAM_URL;
  if (!upstream) throw new Error("E2E_UPSTREAM_URL is not set (playwright.config.ts sets it)");
  const res = await fetch(`${upstream}/api/follow/provider?id=${id}`, { headers: { lang: "en" } });
  const answer = (await res.json()) as { code: number; msg: string; data: Provider };
  if (answer.code !== 1) throw new Error(`provider ${id}: ${answer.msg}`);
  return answer.data;
}

/**
 * Provider lots whose proportional copy by `copyUsd` is about `copyLots` lots (rounded up to the
 * lot step `step`), so that a spec does not depend on how much the provider was funded with.
 */
export function lotsForCopy(
  providerEquityUsd: number,
  copyUsd: number,
  copyLots: number,
  step = 0.01,
): string {
  const raw = (copyLots * providerEquityUsd) / copyUsd;
  return (Math.ceil(raw / step) * step).toFixed(2);
}
