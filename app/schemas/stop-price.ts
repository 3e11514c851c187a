/**
 * Take-profit / stop-loss editing of an open position (intent=stop): POST /v1/api/forex/set_stop_price
 * {id, target_profit_price, stop_loss_price}. 0 or empty means "not set"; negatives are refused.
 * Messages are i18n keys of the "trade" namespace (shared with the order form).
 */
import { z } from "zod";
import { optionalPrice } from "./order";
import { idempotencyKey } from "./fields";

export const stopPriceSchema = z.object({
  intent: z.literal("stop"),
  id: z
    .number({ required_error: "errors.order_id", invalid_type_error: "errors.order_id" })
    .int()
    .positive("errors.order_id"),
  target_profit_price: optionalPrice,
  stop_loss_price: optionalPrice,
  idempotency_key: idempotencyKey("errors.expired").optional(),
});
