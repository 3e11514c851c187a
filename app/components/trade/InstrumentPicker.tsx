/**
 * The instrument header of /trade with its picker drawer: a <details> listing every instrument as a
 * link (works without JavaScript); the drawer closes itself on navigation with JavaScript.
 */
import { useLocation } from "@remix-run/react";
import { useListLinks } from "~/components/useListLinks";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import type { InstrumentView } from "~/upstream/views";
import { formatChange, formatPrice, signOf } from "~/utils/format";
import { useLang } from "./hooks";
import { StarButton, type StarLabels } from "~/components/Star";

export interface PickerQuote {
  close: number;
  change: number;
}

/** What the picker lists of each instrument. */
export type PickerInstrument = Pick<
  InstrumentView,
  "id" | "code" | "showCode" | "precision" | "marketOpen"
> & { quote: PickerQuote };

export function InstrumentPicker({
  current,
  instruments,
  period,
  quotes,
  star,
}: {
  current: Pick<InstrumentView, "id" | "showCode">;
  instruments: PickerInstrument[];
  period: string;
  quotes?: Record<number, PickerQuote>;
  /** Signed in: each row's star, posting the page's star form; null for a visitor (no stars). */
  star?: { formId: string; favourites: readonly string[]; labels: StarLabels } | null;
}) {
  const { t } = useTranslation("trade");
  const lang = useLang();
  const ref = useRef<HTMLDetailsElement>(null);
  const location = useLocation();
  const onListClick = useListLinks();
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [location.key]);
  return (
    <details className="picker" ref={ref} data-testid="instrument-picker">
      <summary className="picker-summary" aria-label={t("picker.open", { code: current.showCode })}>
        <span className="picker-code" data-testid="instrument-code">
          {current.showCode}
        </span>
        <span className="picker-caret" aria-hidden="true">
          ▾
        </span>
      </summary>
      <div className="picker-drawer" role="region" aria-label={t("picker.title")}>
        <p className="picker-title">{t("picker.title")}</p>
        <ul className="picker-list" onClick={onListClick}>
          {instruments.map((i) => {
            const q = quotes?.[i.id] ?? i.quote;
            return (
              <li key={i.id} className={star ? "picker-row" : undefined}>
                <a
                  href={`/trade?code=${encodeURIComponent(i.code)}&period=${encodeURIComponent(period)}`}
                  className={i.id === current.id ? "picker-item active" : "picker-item"}
                  aria-current={i.id === current.id ? "true" : undefined}
                  data-discover="true"
                >
                  <span className="picker-item-code">{i.showCode}</span>
                  {!i.marketOpen ? <span className="badge badge-closed">{t("closed")}</span> : null}
                  <span className="picker-item-price">
                    {formatPrice(q?.close, i.precision, lang)}
                  </span>
                  <span className={`picker-item-change ${signOf(q?.change)}`}>
                    {formatChange(q?.change, lang)}
                  </span>
                </a>
                {star ? (
                  <StarButton
                    formId={star.formId}
                    code={i.code}
                    name={i.showCode}
                    starred={star.favourites.includes(i.code)}
                    labels={star.labels}
                  />
                ) : null}
              </li>
            );
          })}
        </ul>
      </div>
    </details>
  );
}
