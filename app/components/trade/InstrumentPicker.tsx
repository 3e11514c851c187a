/**
 * The instrument header of /trade with its picker drawer: a <details> listing every instrument as a
 * link (works without JavaScript); the drawer closes itself on navigation with JavaScript.
 */
import { Link, useLocation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { Instrument } from "~/upstream/market.server";
import { formatChange, formatPrice, signOf } from "~/utils/format";
import { useLang } from "./hooks";

export interface PickerQuote {
  Close: number;
  Change: number;
}

export function InstrumentPicker({
  current,
  instruments,
  period,
  quotes,
}: {
  current: Instrument;
  instruments: Pick<Instrument, "Id" | "Code" | "ShowCode" | "PricePrecision" | "MarketStatus" | "ForexQuotations">[];
  period: string;
  quotes?: Record<number, PickerQuote>;
}) {
  const { t } = useTranslation("trade");
  const lang = useLang();
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location.key]);
  return (
    <details className="picker" ref={ref} data-testid="instrument-picker">
      <summary className="picker-summary" aria-label={t("picker.open", { code: current.ShowCode })}>
        <span className="picker-code" data-testid="instrument-code">{current.ShowCode}</span>
        <span className="picker-caret" aria-hidden="true">▾</span>
      </summary>
      <div className="picker-drawer" role="region" aria-label={t("picker.title")}>
        <p className="picker-title">{t("picker.title")}</p>
        <ul className="picker-list">
          {instruments.map((i) => {
            const q = quotes?.[i.Id] ?? i.ForexQuotations;
            return (
              <li key={i.Id}>
                <Link
                  to={`/trade?code=${encodeURIComponent(i.Code)}&period=${encodeURIComponent(period)}`}
                  className={i.Id === current.Id ? "picker-item active" : "picker-item"}
                  aria-current={i.Id === current.Id ? "true" : undefined}
                  prefetch="none"
                >
                  <span className="picker-item-code">{i.ShowCode}</span>
                  {i.MarketStatus !== 1 ? <span className="badge badge-closed">{t("closed")}</span> : null}
                  <span className="picker-item-price">{formatPrice(q?.Close, i.PricePrecision, lang)}</span>
                  <span className={`picker-item-change ${signOf(q?.Change)}`}>{formatChange(q?.Change, lang)}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </div>
    </details>
  );
}
