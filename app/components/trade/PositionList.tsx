/**
 * The open positions of the current instrument under the order form of /trade, each with its live
 * profit and a close button.
 */
import { useTranslation } from "~/translation";
import type { LiveRow, OrderView } from "~/upstream/views";
import { formatLots, formatPrice, formatProfit, signOf } from "~/utils/format";
import { useLang } from "./hooks";
import { OrderActionForm } from "./OrderActionForm";

export function PositionList({
  positions,
  precision,
  pip,
  live,
  keys,
}: {
  positions: OrderView[];
  precision: number;
  pip: number;
  live: Record<number, LiveRow>;
  /** Idempotency key of each row's close form (made when the page was rendered). */
  keys: Record<number, string>;
}) {
  const { t } = useTranslation("trade");
  const lang = useLang();
  return (
    <section className="positions" aria-labelledby="positions-title" data-testid="trade-positions">
      <h2 id="positions-title">{t("positions.title")}</h2>
      {positions.length === 0 ? (
        <p className="empty">{t("positions.empty")}</p>
      ) : (
        <ul className="order-list">
          {positions.map((o) => {
            const l = live[o.id];
            const profit = l?.profit ?? o.profit;
            const price = l?.price ?? o.price;
            return (
              <li key={o.id} className="order-row" data-testid="order-row" data-order-id={o.id}>
                <div className="order-row-main">
                  <span className={o.side === "buy" ? "dir buy" : "dir sell"}>
                    {o.side === "buy" ? t("buy") : t("sell")}
                  </span>
                  <span className="order-lots">
                    {t("lots_value", {
                      lots: formatLots(o.lots, pip, lang),
                      count: Number(o.lots),
                    })}
                  </span>
                  <span className="order-prices">
                    {formatPrice(o.openPrice || o.originPrice, precision, lang)}{" "}
                    <span className="flip-rtl" aria-hidden="true">
                      →
                    </span>{" "}
                    <span data-testid="order-price">{formatPrice(price, precision, lang)}</span>
                  </span>
                </div>
                <div className="order-row-side">
                  <span className={`profit ${signOf(profit)}`} data-testid="order-profit">
                    {formatProfit(profit, lang)}
                  </span>
                  <OrderActionForm
                    intent="close"
                    id={o.id}
                    idempotencyKey={keys[o.id] ?? ""}
                    label={t("positions.close_label", { id: o.id })}
                    className="btn btn-small btn-outline"
                  >
                    {t("positions.close")}
                  </OrderActionForm>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
