/**
 * /trade?code=EURUSD&period=1min — the trade screen: instrument header with picker drawer, period
 * bar, candlestick chart (SVG from the server, chart.js after hydration, live from KLINE.{code}),
 * the order form and the instrument's open positions.
 *
 * Action intents: submit (place an order; a visitor is sent to /login?from=/trade?code=...; the
 * `step` buttons re-render the form with new lots without JavaScript) and close (close a position).
 */
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { useCallback, useEffect, useMemo, useState } from "react";
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { liveQuotes, type InstrumentView } from "~/upstream/views";
import { formatChange, formatPrice, formatVolume, signOf } from "~/utils/format";
import { useLive } from "~/live/useLive";
import { InstrumentPicker } from "~/components/trade/InstrumentPicker";
import {
  createLiveQuotes,
  liveField,
  liveMarketOpen,
  livePrice,
  useLiveQuote,
  type LiveQuotes,
} from "~/components/trade/live-quotes";
import { PeriodBar } from "~/components/trade/PeriodBar";
import { LiveCandleChart } from "~/components/trade/LiveCandleChart";
import { ChartSettingsForm, type ChartRefusal } from "~/components/trade/ChartSettingsForm";
import { INDICATOR_KEYS, INDICATORS, type ChartSettings } from "@contract/api/chart-rules";
import { OrderForm } from "~/components/trade/OrderForm";
import { RiskDisclosure } from "~/components/risk/RiskDisclosure";
import { PositionList } from "~/components/trade/PositionList";
import { OrderSuccess } from "~/components/trade/OrderSuccess";
import { useLang } from "~/components/trade/hooks";
import { useRevalidateAfterPosts } from "~/hooks/useRefreshAfterPosts";
import { useLiveAccount } from "~/hooks/useLiveAccount";
import { TOPIC } from "@contract/constants";
import { FormErrors, refusalMessages } from "~/components/Form";
import { StarButton, StarForm, type StarLabels } from "~/components/Star";
import tradeStyles from "~/styles/trade.css";
import riskStyles from "~/styles/risk.css";
import { tradeHref } from "./href";
import type { action, loader } from "./trade.server";

export { action, loader } from "./trade.server";

export const handle = { i18n: ["trade", "chart", "risk"] };

const DAY_MARKET = [TOPIC.DAY_MARKET];

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: riskStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.title ?? "Tradepost" },
];

export default function TradeScreen() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("trade");
  const { t: tc } = useTranslation("common");
  const { t: tch } = useTranslation("chart");
  // The props of the parts memoised against live prices (picker rows, chart, chart settings) stay
  // the same objects from one price to the next.
  const starLabels: StarLabels = useMemo(
    () => ({
      add: (name) => tc("star.add", { code: name }),
      remove: (name) => tc("star.remove", { code: name }),
    }),
    [tc],
  );
  const chartLabels = useMemo(
    () => ({
      line: (id: string) => tch(`line.${id.replace(/\./g, "_")}`),
      panes: paneLabels(d.chart, (key, o) => tch(key, o)),
    }),
    [d.chart, tch],
  );
  const chartRefusal = useMemo(
    () =>
      actionData && "refusedIntent" in actionData && actionData.refusedIntent === "chart"
        ? chartRefusalOf(actionData.result)
        : null,
    [actionData],
  );
  const lang = useLang();
  // A live close while a close (or a navigation) is under way waits for it (see the hook).
  const revalidate = useRevalidateAfterPosts();
  const inst = d.inst;

  // Live quotes of this instrument, of the picker and last prices by code (USD rates), kept
  // outside React's state: a push renders only the parts that show a figure it moved. A new page
  // (instrument, period, revalidation) starts from the server's figures.
  const [live] = useState(createLiveQuotes);
  useEffect(() => live.reset(), [d, live]);

  const onDayMarket = useCallback(
    (_topic: string, payload: unknown) => {
      const items = liveQuotes(payload);
      if (!items.length) return;
      const s = live.get();
      const mine = inst ? items.find((q) => q.id === inst.id) : undefined;
      const picker = { ...s.picker };
      const closes = { ...s.closes };
      for (const q of items) {
        picker[q.id] = { close: q.quote.close, change: q.quote.change };
        if (q.quote.close > 0) closes[q.code.toUpperCase()] = q.quote.close;
      }
      live.set({
        quote: mine ? { ...s.quote, ...mine.quote } : s.quote,
        marketOpen: mine ? mine.marketOpen : s.marketOpen,
        picker,
        closes,
      });
    },
    [inst, live],
  );
  useLive(DAY_MARKET, onDayMarket);

  const onClosed = useCallback(
    (ids: number[]) => {
      // A position of this instrument closed: the balance changed, refresh the server's figures.
      const known = new Set(d.positions.map((p) => p.id));
      if (!ids.some((id) => known.has(id))) return;
      revalidate();
    },
    [d.positions, revalidate],
  );
  const account = useLiveAccount({ enabled: d.signedIn, reset: d, onClosed });
  const liveRows = account.rows;
  const closed = account.closed;
  const liveBalance = account.account.balance ?? null;

  const onCandle = useCallback(
    (c: { close: number }) => {
      const s = live.get();
      if (s.quote.close !== c.close) live.set({ ...s, quote: { ...s.quote, close: c.close } });
    },
    [live],
  );
  const marketOpen = useLiveQuote(live, (s) => (inst ? liveMarketOpen(s, inst) : false));

  if (!inst) {
    return (
      <div className="trade-screen">
        <h1 className="sr-only">{t("title")}</h1>
        <p className="empty">{t("no_instruments")}</p>
      </div>
    );
  }

  const positions = d.positions.filter((p) => !closed.has(p.id));
  const backHref = tradeHref(inst.code, d.period);
  // A refused close (no JavaScript) is shown above the positions, not in the order form; a
  // refused chart choice in its own form.
  const refusedIntent =
    actionData && "refusedIntent" in actionData ? actionData.refusedIntent : null;
  const closeRefused = refusedIntent === "close";
  const periodLabel = tch([`trade:period.${d.period}`, `period.${d.period}`]);
  const result = (closeRefused || chartRefusal ? undefined : actionData?.result) as Parameters<
    typeof OrderForm
  >[0]["lastResult"];

  return (
    <div className="trade-screen">
      <header className="trade-head">
        <h1 className="sr-only">{t("title")}</h1>
        <InstrumentPicker
          current={inst}
          instruments={d.instruments}
          period={d.period}
          live={live}
          star={
            d.favourites
              ? { formId: "trade-star", favourites: d.favourites, labels: starLabels }
              : null
          }
        />
        <TradePrice inst={inst} live={live} marketOpen={marketOpen} />
        {d.starred !== null ? (
          <>
            <StarForm id="trade-star" back={backHref} />
            <StarButton
              formId="trade-star"
              code={inst.code}
              name={inst.showCode}
              starred={d.starred}
              labels={starLabels}
              className="star trade-star"
            />
          </>
        ) : null}
        {d.signedIn ? (
          <Link
            to={`/mine/alerts?code=${encodeURIComponent(inst.code)}`}
            className="btn btn-small trade-alert"
            data-testid="set-alert"
          >
            {t("set_alert")}
          </Link>
        ) : null}
      </header>
      <TradeStats inst={inst} live={live} />
      <PeriodBar code={inst.code} period={d.period} />
      <LiveCandleChart
        key={`${inst.code}-${d.period}-${JSON.stringify(d.chart)}`}
        candles={d.candles}
        settings={d.chart}
        code={inst.code}
        period={d.period}
        precision={inst.precision}
        lang={lang}
        title={tch("title", {
          code: inst.showCode,
          period: periodLabel,
          type: tch(`type.${d.chart.type}`),
        })}
        labels={chartLabels}
        onCandle={onCandle}
      />
      <ChartSettingsForm
        code={inst.code}
        period={d.period}
        periodLabel={periodLabel}
        settings={d.chart}
        refusal={chartRefusal}
      />
      <a className="btn btn-link refresh-link" href={backHref}>
        {t("refresh")}
      </a>
      <OrderForm
        key={inst.id}
        instrument={inst}
        feeType={d.feeType}
        live={live}
        closes={d.closes}
        balance={liveBalance ?? d.balance}
        signedIn={d.signedIn}
        marketOpen={marketOpen}
        idempotencyKey={d.formKey}
        lastResult={result}
      />
      <RiskDisclosure d={d.disclosure} lang={lang} />
      {actionData?.kind === "success" ? (
        <OrderSuccess
          token={actionData.token}
          text={actionData.text}
          pending={actionData.pending}
          backHref={backHref}
        />
      ) : null}
      {closeRefused ? <FormErrors errors={refusalMessages(actionData)} /> : null}
      {d.signedIn ? (
        <PositionList
          positions={positions}
          precision={inst.precision}
          pip={inst.lotStep}
          live={liveRows}
          keys={d.closeKeys}
        />
      ) : null}
    </div>
  );
}

/** The instrument's live price and change under the picker, and whether its market is closed. */
function TradePrice({
  inst,
  live,
  marketOpen,
}: {
  inst: InstrumentView;
  live: LiveQuotes;
  marketOpen: boolean;
}) {
  const { t } = useTranslation("trade");
  const lang = useLang();
  const price = useLiveQuote(live, (s) => livePrice(s, inst));
  const change = useLiveQuote(live, (s) => liveField(s, inst, "change"));
  return (
    <div className="trade-price">
      <span className={`price ${signOf(change)}`} data-testid="trade-price" aria-label={t("price")}>
        {formatPrice(price, inst.precision, lang)}
      </span>
      <span className={`change ${signOf(change)}`} data-testid="trade-change">
        {formatChange(change, lang)}
      </span>
      {!marketOpen ? <span className="badge badge-closed">{t("closed")}</span> : null}
    </div>
  );
}

/** The day's high, low, open and volume, live. */
function TradeStats({ inst, live }: { inst: InstrumentView; live: LiveQuotes }) {
  const { t } = useTranslation("trade");
  const lang = useLang();
  const high = useLiveQuote(live, (s) => liveField(s, inst, "high"));
  const low = useLiveQuote(live, (s) => liveField(s, inst, "low"));
  const open = useLiveQuote(live, (s) => liveField(s, inst, "open"));
  const volume = useLiveQuote(live, (s) => liveField(s, inst, "volume"));
  return (
    <dl className="trade-stats" data-testid="trade-stats">
      <div>
        <dt>{t("stats.high")}</dt>
        <dd data-testid="stat-high">{formatPrice(high, inst.precision, lang)}</dd>
      </div>
      <div>
        <dt>{t("stats.low")}</dt>
        <dd data-testid="stat-low">{formatPrice(low, inst.precision, lang)}</dd>
      </div>
      <div>
        <dt>{t("stats.open")}</dt>
        <dd data-testid="stat-open">{formatPrice(open, inst.precision, lang)}</dd>
      </div>
      <div>
        <dt>{t("stats.volume")}</dt>
        <dd data-testid="stat-volume">{formatVolume(volume, lang)}</dd>
      </div>
    </dl>
  );
}

/** Each pane's title with its parameters ("RSI (14)", "MACD (12, 26, 9)"). */
function paneLabels(
  s: ChartSettings,
  t: (key: string, o: Record<string, number | boolean>) => string,
): Record<string, string> {
  return Object.fromEntries(
    INDICATOR_KEYS.filter((k) => INDICATORS[k].pane === "lower").map((k) => [
      k,
      t(`pane.${k}`, s.indicators[k]),
    ]),
  );
}

/** A refused chart choice as its form shows it (conform's reply: values and errors by field). */
function chartRefusalOf(result: unknown): ChartRefusal {
  const r = (result ?? {}) as {
    initialValue?: Record<string, unknown> | null;
    error?: Record<string, string[] | null> | null;
  };
  const errors = r.error ?? {};
  return { values: r.initialValue ?? {}, errors, formErrors: errors[""] ?? [] };
}
