import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Sparkline } from "./Sparkline";
import { formatChange, formatPrice, signOf } from "~/utils/format";

export interface RowQuote {
  Id: number;
  Code: string;
  ShowCode: string;
  logo: string | null;
  PricePrecision: number;
  MarketStatus: number;
  Close: number;
  Change: number;
}

/**
 * One instrument of a quote list: logo, code, price, change %, sparkline and the closed label. The
 * price, change and sparkline carry data-live-* attributes named by the instrument code.
 */
export function InstrumentRow({ q, points, lang }: { q: RowQuote; points: number[]; lang: string }) {
  const { t } = useTranslation("common");
  const cls = signOf(q.Change);
  const closed = q.MarketStatus !== 1;
  return (
    <li className="qrow" data-code={q.Code}>
      <Link to={`/trade?code=${encodeURIComponent(q.Code)}`} className="qrow-link" prefetch="none">
        <span className="qrow-logo">
          {q.logo ? <img src={q.logo} alt="" width={32} height={32} loading="lazy" decoding="async" /> : <span className="logo-fallback">{q.ShowCode.slice(0, 1)}</span>}
        </span>
        <span className="qrow-name">
          <strong>{q.ShowCode}</strong>
          {closed ? (
            <span className="badge closed" data-closed={q.Code}>
              {t("market.closed")}
            </span>
          ) : (
            <span className="qrow-code">{q.Code}</span>
          )}
        </span>
        <span className="qrow-spark">
          <Sparkline points={points} code={q.Code} label={t("market.chart_label", { code: q.ShowCode })} />
        </span>
        <span className="qrow-quote">
          <span className={`price ${cls}`} data-live-price={q.Code}>
            {formatPrice(q.Close, q.PricePrecision, lang)}
          </span>
          <span className={`change chip-${cls}`} data-live-change={q.Code}>
            {formatChange(q.Change, lang)}
          </span>
        </span>
      </Link>
    </li>
  );
}
