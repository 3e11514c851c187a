import { useId, useMemo } from "react";
import { useListLinks } from "./useListLinks";
import type { LiveQuote } from "~/upstream/views";
import { useTranslation } from "~/translation";
import { Sparkline } from "./Sparkline";
import { formatChange, formatPrice, signOf } from "~/utils/format";
import { StarButton, StarForm, type StarLabels } from "./Star";

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

/** The words every row of a list shows, translated once per list instead of once per row. */
interface RowLabels {
  closed: string;
  chart: (showCode: string) => string;
  star: StarLabels;
}

const SLOT = "\u0000";

function useRowLabels(): RowLabels {
  const { t } = useTranslation("common");
  return useMemo(() => {
    // The chart label's template with a slot for the name, filled per row without i18next.
    const chart = t("market.chart_label", { code: SLOT });
    const add = t("star.add", { code: SLOT });
    const remove = t("star.remove", { code: SLOT });
    return {
      closed: t("market.closed"),
      chart: (showCode: string) => chart.split(SLOT).join(showCode),
      star: {
        add: (name: string) => add.split(SLOT).join(name),
        remove: (name: string) => remove.split(SLOT).join(name),
      },
    };
  }, [t]);
}

/**
 * One instrument of a quote list: logo, code, price, change %, sparkline and the closed label. The
 * price and change carry data-live-* attributes named by the instrument code; the sparkline is the
 * day's shape from the shared sprite and moves when the page's data is read again.
 */
function InstrumentRow({
  q,
  up,
  sparkHref,
  lang,
  labels,
  star,
}: {
  q: RowQuote;
  /** The sparkline's direction; null: no sparkline points. */
  up: boolean | null;
  /** The sparkline sprite's URL (null when the sparklines could not be read). */
  sparkHref: string | null;
  lang: string;
  labels: RowLabels;
  /** The star's form and whether the instrument is in Favourites; null: no star (signed out). */
  star: { formId: string; starred: boolean } | null;
}) {
  const cls = signOf(q.change);
  const closed = !q.marketOpen;
  return (
    <li className={star ? "qrow has-star" : "qrow"} data-code={q.code}>
      {/* A plain link: the list's useListLinks navigates on the client. */}
      <a
        href={`/trade?code=${encodeURIComponent(q.code)}`}
        className="qrow-link"
        data-discover="true"
      >
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
              {labels.closed}
            </span>
          ) : (
            <span className="qrow-code">{q.code}</span>
          )}
        </span>
        <span className="qrow-spark">
          <Sparkline
            href={sparkHref && up !== null ? `${sparkHref}#s${q.id}` : null}
            up={up ?? true}
            label={labels.chart(q.showCode)}
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
      </a>
      {star ? (
        <StarButton
          formId={star.formId}
          code={q.code}
          name={q.showCode}
          starred={star.starred}
          labels={labels.star}
        />
      ) : null}
    </li>
  );
}

/**
 * A quote list (home, search results): one row per instrument, live quotes merged in by code when
 * given, and one client-side click handler for all its links. With `star` (a signed-in user), each
 * row has its star, all of them buttons of one hidden form.
 */
export function InstrumentList({
  rows,
  sparkHref,
  lang,
  live,
  star,
}: {
  rows: { quote: RowQuote; up: boolean | null }[];
  sparkHref: string | null;
  lang: string;
  live?: Record<string, LiveQuote>;
  /** The codes in Favourites, and the page a star comes back to without JavaScript. */
  star?: { favourites: string[]; back: string } | null;
}) {
  const onListClick = useListLinks();
  const labels = useRowLabels();
  const formId = `star-${useId().replace(/:/g, "")}`;
  const starred = useMemo(() => new Set(star?.favourites ?? []), [star?.favourites]);
  return (
    <>
      {star ? <StarForm id={formId} back={star.back} /> : null}
      <ul className="qlist" onClick={onListClick}>
        {rows.map(({ quote, up }) => {
          const l = live?.[quote.code];
          const q = l
            ? { ...quote, close: l.quote.close, change: l.quote.change, marketOpen: l.marketOpen }
            : quote;
          return (
            <InstrumentRow
              key={quote.id}
              q={q}
              up={up}
              sparkHref={sparkHref}
              lang={lang}
              labels={labels}
              star={star ? { formId, starred: starred.has(quote.code) } : null}
            />
          );
        })}
      </ul>
    </>
  );
}
