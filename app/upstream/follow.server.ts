/**
 * The trader ranking (contract/api/follow.ts) and copy trading (contract/api/copy.ts): providers,
 * the user's copies and their commands, and the user's own provider settings. Commands carry the
 * form's idempotency key as the Idempotency-Key header.
 */
import * as followApi from "@contract/api/follow";
import * as copyApi from "@contract/api/copy";
import { pathOf } from "@contract/api/endpoint";
import { send, type Caller, type UpstreamResult } from "./client.server";

import type { FollowItem, RankSort, RiskDisclosure } from "@contract/api/follow";
import { shared } from "./shared-cache.server";
import type { Copy, CopyDetail, CopyMode, Provider, ProviderSettings } from "@contract/api/copy";

/** The ranking's sorts and filters, as GET /api/follow/list takes them (absent: none). */
export interface RankQuery {
  sort?: RankSort;
  max_risk?: number;
  min_months?: number;
  category?: number;
}

export function followList(c: Caller, q: RankQuery = {}): Promise<UpstreamResult<FollowItem[]>> {
  return send<FollowItem[]>(c, followApi.followList, { ...q });
}

/** The ids of the user's favourite providers. */
export function followFavourites(c: Caller): Promise<UpstreamResult<number[]>> {
  return send<number[]>(c, followApi.followFavourites, {});
}

/** Stars a provider (on) or takes its star away. */
export function followFavouriteSet(
  c: Caller,
  providerId: number,
  on: boolean,
): Promise<UpstreamResult<number[]>> {
  return send<number[]>(c, followApi.followFavouriteSet, {
    provider_id: providerId,
    on: on ? 1 : 0,
  });
}

/** How long the risk disclosure (computed once a day; an operator's change) is shared. */
const DISCLOSURE_CACHE_MS = 10_000;

/** The risk disclosure of the trading screens, shared by every page for DISCLOSURE_CACHE_MS. */
export function riskDisclosure(c: Caller): Promise<UpstreamResult<RiskDisclosure>> {
  return shared("risk_disclosure", DISCLOSURE_CACHE_MS, () =>
    send<RiskDisclosure>(c, followApi.riskDisclosure, {}),
  );
}

/** A provider's page (404 copy_provider_not_found when hidden or unknown). */
export function followProvider(c: Caller, id: number): Promise<UpstreamResult<Provider>> {
  return send<Provider>(c, copyApi.followProvider, { id });
}

export interface CopyStartParams {
  provider_id: number;
  amount: string;
  mode: CopyMode;
  multiple?: string;
  stop_loss_pct?: number;
  copy_open: boolean;
}

/** Starts a copy: the amount moves from free margin into the new copy. */
export function copyStart(
  c: Caller,
  p: CopyStartParams,
  idempotencyKey?: string,
): Promise<UpstreamResult<Copy>> {
  return send<Copy>(
    c,
    copyApi.copyStart,
    {
      provider_id: p.provider_id,
      amount: p.amount,
      mode: p.mode,
      multiple: p.multiple,
      stop_loss_pct: p.stop_loss_pct,
      copy_open: p.copy_open ? 1 : 0,
    },
    { idempotencyKey },
  );
}

/** The user's copies, newest first. */
export function copyList(c: Caller): Promise<UpstreamResult<Copy[]>> {
  return send<Copy[]>(c, copyApi.copyList, {});
}

/** One copy with its positions and skipped trades. */
export function copyDetail(c: Caller, id: number): Promise<UpstreamResult<CopyDetail>> {
  return send<CopyDetail>(c, copyApi.copyDetail, { id });
}

const COMMANDS = {
  pause: copyApi.copyPause,
  resume: copyApi.copyResume,
  stop: copyApi.copyStop,
} as const;
export type CopyCommand = keyof typeof COMMANDS;

/** Pauses, resumes or stops a copy. */
export function copyCommand(
  c: Caller,
  command: CopyCommand,
  id: number,
  idempotencyKey?: string,
): Promise<UpstreamResult<Copy>> {
  const def = COMMANDS[command];
  return send<Copy>(
    c,
    { method: def.method, path: pathOf(def, { id }), data: def.data },
    {},
    { idempotencyKey },
  );
}

/** Adds money to a copy from free margin, or takes some back. */
export function copyFunds(
  c: Caller,
  id: number,
  p: { direction: "add" | "remove"; amount: string },
  idempotencyKey?: string,
): Promise<UpstreamResult<Copy>> {
  const def = copyApi.copyFunds;
  return send<Copy>(c, { method: def.method, path: pathOf(def, { id }), data: def.data }, p, {
    idempotencyKey,
  });
}

/** Closes one copied position at market. */
export function copyClosePosition(
  c: Caller,
  id: number,
  positionId: number,
  idempotencyKey?: string,
): Promise<UpstreamResult<Copy>> {
  const def = copyApi.copyClosePosition;
  return send<Copy>(
    c,
    { method: def.method, path: pathOf(def, { id }), data: def.data },
    { position_id: positionId },
    { idempotencyKey },
  );
}

/** The user's provider settings and whether the user may be a provider. */
export function providerMine(c: Caller): Promise<UpstreamResult<ProviderSettings>> {
  return send<ProviderSettings>(c, copyApi.providerMine, {});
}

/** Becomes a provider, or changes the public name, description and minimum investment. */
export function providerSave(
  c: Caller,
  p: { name: string; description: string; min_investment?: string },
): Promise<UpstreamResult<ProviderSettings>> {
  return send<ProviderSettings>(c, copyApi.providerSave, p);
}

/** Stops being a provider (no new copies). */
export function providerStop(c: Caller): Promise<UpstreamResult<ProviderSettings>> {
  return send<ProviderSettings>(c, copyApi.providerStop, {});
}
