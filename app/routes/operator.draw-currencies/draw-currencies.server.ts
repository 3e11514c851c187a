/** Withdrawal currencies' server side: GET /admin/api/draw_currencies; the type is fixed once made. */
import { addDrawCurrency, drawCurrencies, updateDrawCurrency } from "~/upstream/operator.server";
import { catalogRoute } from "~/utils/catalog.server";

export const { loader, action } = catalogRoute({
  path: "/operator/draw-currencies",
  fields: [
    "type",
    "code",
    "protocol",
    "fee_type",
    "draw_rate",
    "usd_price",
    "min",
    "max",
    "enabled",
    "sort",
  ],
  fixed: ["type"],
  list: drawCurrencies,
  add: addDrawCurrency,
  update: updateDrawCurrency,
});
