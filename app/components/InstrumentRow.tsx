import { Link } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Sparkline } from "./Sparkline";
import { formatChange, formatPrice, signOf } from "~/utils/format";

/** What a quote row shows of an instrument (a view model, live fields merged in). */
export interface RowQuote {
  id: number;
  code: string;
  showCode: string;
  logo: string | null;
  precision: number;
  marketOpen: boolean;
  close: number;
  change: number;
}

/**
 * One instrument of a quote list: logo, code, price, change %, sparkline and the closed label. The
 * price, change and sparkline carry data-live-* attributes named by the instrument code.
 */
export function InstrumentRow({
  q,
  points,
  lang,
}: {
  q: RowQuote;
  points: number[];
  lang: string;
}) {
  const { t } = useTranslation("common");
  const cls = signOf(q.change);
  const closed = !q.marketOpen;
  return (
    <li className="qrow" data-code={q.code}>
      <Link to={`/trade?code=${encodeURIComponent(q.code)}`} className="qrow-link" prefetch="none">
        <span className="qrow-logo">
          {q.logo ? (
            <img src={q.logo} alt="" width={32} height={32} loading="lazy" decoding="async" />
          ) : (
            <span className="logo-fallback">{q.showCode.slice(0, 1)}</span>
          )}
        </span>
        <span className="qrow-name">
          <strong>{q.showCode}</strong>
          {closed ? (
            <span className="badge closed" data-closed={q.code}>
              {t("market.closed")}
            </span>
          ) : (
            <span className="qrow-code">{q.code}</span>
          )}
        </span>
        <span className="qrow-spark">
          <Sparkline
            points={points}
            code={q.code}
            label={t("market.chart_label", { code: q.showCode })}
          />
        </span>
        <span className="qrow-quote">
          <span className={`price ${cls}`} data-live-price={q.code}>
            {formatPrice(q.close, q.precision, lang)}
          </span>
          <span className={`change chip-${cls}`} data-live-change={q.code}>
            {formatChange(q.change, lang)}
          </span>
        </span>
      </Link>
    </li>
  );
}
