/**
 * The instrument header of /trade with its picker drawer: a <details> listing every instrument as a
 * link (works without JavaScript); the drawer closes itself on navigation with JavaScript.
 */
import { useLocation } from "@remix-run/react";
import { useListLinks } from "~/components/useListLinks";
import { memo, useEffect, useRef } from "react";
import { useTranslation } from "~/translation";
import type { InstrumentView } from "~/upstream/views";
import { formatChange, formatPrice, signOf } from "~/utils/format";
import { useLang } from "./hooks";
import { StarButton, type StarLabels } from "~/components/Star";
import { useLiveQuote, type LiveQuotes, type PickerQuote } from "./live-quotes";

export type { PickerQuote };

/** What the picker lists of each instrument. */
export type PickerInstrument = Pick<
  InstrumentView,
  "id" | "code" | "showCode" | "precision" | "marketOpen"
> & { quote: PickerQuote };

export function InstrumentPicker({
  current,
  instruments,
  period,
  live,
  star,
}: {
  current: Pick<InstrumentView, "id" | "showCode">;
  instruments: PickerInstrument[];
  period: string;
  /** The screen's live prices: each row follows its instrument's. */
  live: LiveQuotes;
  /** Signed in: each row's star, posting the page's star form; null for a visitor (no stars). */
  star?: { formId: string; favourites: readonly string[]; labels: StarLabels } | null;
}) {
  const { t } = useTranslation("trade");
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
            return (
              <PickerRow
                key={i.id}
                inst={i}
                live={live}
                active={i.id === current.id}
                period={period}
                star={star ? star.formId : null}
                starred={star ? star.favourites.includes(i.code) : false}
                starLabels={star?.labels}
              />
            );
          })}
        </ul>
      </div>
    </details>
  );
}

/**
 * One instrument of the drawer, following its own live price: a push renders again only the rows
 * whose price moved, not the whole list.
 */
const PickerRow = memo(function PickerRow({
  inst: i,
  live,
  active,
  period,
  star,
  starred,
  starLabels,
}: {
  inst: PickerInstrument;
  live: LiveQuotes;
  active: boolean;
  period: string;
  /** The star form's id when signed in, else null (no star). */
  star: string | null;
  starred: boolean;
  starLabels: StarLabels | undefined;
}) {
  const { t } = useTranslation("trade");
  const lang = useLang();
  const close = useLiveQuote(live, (s) => s.picker[i.id]?.close ?? i.quote.close);
  const change = useLiveQuote(live, (s) => s.picker[i.id]?.change ?? i.quote.change);
  return (
    <li className={star ? "picker-row" : undefined}>
      <a
        href={`/trade?code=${encodeURIComponent(i.code)}&period=${encodeURIComponent(period)}`}
        className={active ? "picker-item active" : "picker-item"}
        aria-current={active ? "true" : undefined}
        data-discover="true"
      >
        <span className="picker-item-code">{i.showCode}</span>
        {!i.marketOpen ? <span className="badge badge-closed">{t("closed")}</span> : null}
        <span className="picker-item-price">{formatPrice(close, i.precision, lang)}</span>
        <span className={`picker-item-change ${signOf(change)}`}>{formatChange(change, lang)}</span>
      </a>
      {star && starLabels ? (
        <StarButton
          formId={star}
          code={i.code}
          name={i.showCode}
          starred={starred}
          labels={starLabels}
        />
      ) : null}
    </li>
  );
});
