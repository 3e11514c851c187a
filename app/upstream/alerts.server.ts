/** Price alert calls of the upstream (upstream/API.md "Price alerts"). */
import * as alertsApi from "@contract/api/alerts";
import type { AlertCondition, AlertRepeat, PriceAlert } from "@contract/api/alerts";
import { type Caller, type UpstreamResult, send } from "./client.server";

export function alertList(c: Caller): Promise<UpstreamResult<PriceAlert[]>> {
  return send<PriceAlert[]>(c, alertsApi.alertList, {});
}

export function alertCreate(
  c: Caller,
  p: {
    forex_id: number;
    condition: AlertCondition;
    target: string;
    repeat: AlertRepeat;
    cooldown_min?: number;
    until?: string;
  },
): Promise<UpstreamResult<PriceAlert>> {
  return send<PriceAlert>(c, alertsApi.alertCreate, p);
}

export function alertDelete(c: Caller, id: number): Promise<UpstreamResult<null>> {
  return send<null>(c, alertsApi.alertDelete, { id });
}
