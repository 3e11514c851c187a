/** Deposit channels' server side: coin deposit channels of GET /admin/api/charge_channels. */
import { addChargeChannel, chargeChannels, updateChargeChannel } from "~/upstream/operator.server";
import { catalogRoute } from "~/utils/catalog.server";

const CHANNEL_FIELDS = [
  "currency_code",
  "protocol_code",
  "address",
  "usd_price",
  "enabled",
  "sort",
] as const;

export const { loader, action } = catalogRoute({
  path: "/operator/channels",
  fields: CHANNEL_FIELDS,
  list: chargeChannels,
  add: addChargeChannel,
  update: updateChargeChannel,
});
