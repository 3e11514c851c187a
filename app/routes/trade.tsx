/**
 * /trade?code=EURUSD&period=1min — the trade screen: instrument header with picker drawer, period
 * bar, candlestick chart (SVG from the server, chart.js after hydration, live from KLINE.{code}),
 * the order form and the instrument's open positions.
 *
 * Action intents: submit (place an order; a visitor is sent to /login?from=/trade?code=...; the
 * `step` buttons re-render the form with new lots without JavaScript) and close (close a position).
 */
import { data, redirect, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData, useRevalidator } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod";
import { useTranslation } from "react-i18next";
import { useCallback, useEffect, useMemo, useState } from "react";
import { callerFor, dataOr, failureToast } from "~/upstream/client.server";
import { PERIODS, kline, tradeList, type Instrument, type Period } from "~/upstream/market.server";
import { getBasicInfo } from "~/upstream/settings.server";
import { closeOrder, forexDetail, myDeal, orderForexId, submitOrder, type Order } from "~/upstream/trading.server";
import { getSignedIn, loginUrl } from "~/session.server";
import { checkCsrf } from "~/csrf.server";
import { getT } from "~/i18n.server";
import { redirectWithToast } from "~/toast.server";
import { closeSchema, orderSchema, stepLots, DEFAULT_MAX_LOTS } from "~/schemas/order";
import { decimalsOf, formatChange, formatPrice, formatVolume, inputValue, signOf } from "~/lib/format";
import { useLive } from "~/live/useLive";
import { InstrumentPicker } from "~/components/trade/InstrumentPicker";
import { PeriodBar } from "~/components/trade/PeriodBar";
import { LiveCandleChart } from "~/components/trade/LiveCandleChart";
import { OrderForm } from "~/components/trade/OrderForm";
import { PositionList, type LiveRow } from "~/components/trade/PositionList";
import { OrderSuccess } from "~/components/trade/OrderSuccess";
import { useLang, mergeLiveRows, useRefreshAfterPosts, type DayMarketItem, type ForexTradePush } from "~/components/trade/hooks";
import { dotDecimal, withDotDecimals } from "~/components/trade/decimal";
import tradeStyles from "~/styles/trade.css";

export const handle = { i18n: ["trade"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: tradeStyles }];

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: d?.title ?? "Tradepost" }];

const DEFAULT_CODE = "EURUSD";

function pickInstrument(list: Instrument[], code: string | null): Instrument | null {
  const c = (code ?? "").trim().toUpperCase();
  return (
    (c && list.find((i) => i.Code.toUpperCase() === c)) ||
    list.find((i) => i.Code.toUpperCase() === DEFAULT_CODE) ||
    list[0] ||
    null
  );
}

function tradeHref(code: string, period: string): string {
  return `/trade?code=${encodeURIComponent(code)}` + (period && period !== "1min" ? `&period=${encodeURIComponent(period)}` : "");
}

function slim(i: Instrument) {
  return {
    Id: i.Id,
    Code: i.Code,
    ShowCode: i.ShowCode,
    PricePrecision: i.PricePrecision,
    MarketStatus: i.MarketStatus,
    ForexQuotations: i.ForexQuotations,
  };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["trade", "common"]);
  const periodParam = url.searchParams.get("period") ?? "1min";
  const period: Period = (PERIODS as readonly string[]).includes(periodParam) ? (periodParam as Period) : "1min";
  const codeParam = url.searchParams.get("code");

  const list = await tradeList(caller);
  const instruments = dataOr(list, []);
  const inst = pickInstrument(instruments, codeParam);
  const signed = await getSignedIn(request);
  if (!inst) {
    return data({
      title: t("trade:title"),
      inst: null,
      instruments: [],
      period,
      candles: [],
      feeType: 1,
      balance: null as number | null,
      signedIn: Boolean(signed),
      positions: [] as Order[],
      closeKeys: {} as Record<number, string>,
      formKey: crypto.randomUUID(),
      toast: failureToast(list) ?? { type: "info" as const, text: t("trade:no_instruments") },
    });
  }

  const [candles, basic, detail, deals] = await Promise.all([
    kline(caller, { forex_id: inst.Id, period }),
    getBasicInfo(caller),
    signed ? forexDetail(caller) : Promise.resolve(null),
    signed ? myDeal(caller, { status: 1, page: 1, forex_id: inst.Id }) : Promise.resolve(null),
  ]);
  // Holdings of every instrument come paged (20 a page): read a few more pages when there are more.
  const holdings = deals && deals.ok ? [...deals.data.data] : [];
  if (deals && deals.ok && deals.data.data.length > 0) {
    for (let page = 2; page <= 5 && holdings.length < deals.data.total; page++) {
      const more = await myDeal(caller, { status: 1, page, forex_id: inst.Id });
      if (!more.ok || more.data.data.length === 0) break;
      holdings.push(...more.data.data);
    }
  }
  const positions = holdings.filter((o) => {
    const fid = orderForexId(o);
    if (fid !== undefined) return fid === inst.Id;
    const c = o.ForexTradeLists?.Code;
    return c ? c === inst.Code : true;
  });
  const closeKeys: Record<number, string> = {};
  for (const p of positions) closeKeys[p.Id] = crypto.randomUUID();
  const unknownCode = codeParam && codeParam.toUpperCase() !== inst.Code.toUpperCase();
  const toast =
    failureToast(candles, ...(detail ? [detail] : []), ...(deals ? [deals] : [])) ??
    (unknownCode ? { type: "error" as const, text: t("trade:unknown_instrument", { code: codeParam!.slice(0, 32) }) } : null);
  return data(
    {
      title: `${inst.ShowCode} · ${t("trade:title")}`,
      inst,
      instruments: instruments.map(slim),
      period,
      candles: dataOr(candles, []),
      feeType: Number(dataOr(basic, { trade_fee_type: 1 } as { trade_fee_type: unknown }).trade_fee_type ?? 1) || 0,
      balance: detail && detail.ok ? Number(detail.data.balance) : null,
      signedIn: Boolean(signed),
      positions,
      closeKeys,
      formKey: crypto.randomUUID(),
      toast,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const STRIP = new Set(["csrf", "intent", "idempotency_key", "step", "type"]);

export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["trade", "common"]);
  const instruments = dataOr(await tradeList(caller), []);
  const forexId = Number(formData.get("forex_id"));
  const inst =
    instruments.find((i) => i.Id === forexId) ?? pickInstrument(instruments, url.searchParams.get("code"));
  const code = inst?.Code ?? url.searchParams.get("code") ?? DEFAULT_CODE;
  const back = tradeHref(code, url.searchParams.get("period") ?? "1min");

  if (intent === "submit") {
    // Lot steppers without JavaScript: the same form again with the new lots (and the estimates).
    const stepDir = formData.get("step");
    if (stepDir !== null) {
      const initialValue: Record<string, string> = {};
      for (const [k, v] of formData.entries()) if (!STRIP.has(k) && typeof v === "string") initialValue[k] = v;
      if (inst && (stepDir === "up" || stepDir === "down")) {
        const rules = { pip: inst.Pip, minLots: inst.ForexMinCont, maxLots: DEFAULT_MAX_LOTS };
        const lots = Number(dotDecimal(initialValue.cont ?? ""));
        const next = stepLots(Number.isFinite(lots) && lots > 0 ? lots : inst.ForexMinCont, stepDir === "up" ? 1 : -1, rules);
        initialValue.cont = inputValue(next, Math.max(decimalsOf(inst.Pip), decimalsOf(inst.ForexMinCont)));
      }
      return data({ kind: "step" as const, result: { initialValue }, token: crypto.randomUUID(), text: "", pending: false });
    }
    const signed = await getSignedIn(request);
    if (!signed) throw redirect(loginUrl(`/trade?code=${encodeURIComponent(code)}`));
    if (!inst) {
      return data({ kind: "error" as const, result: { initialValue: null, status: "error" as const, error: { "": [t("trade:no_instruments")] } }, token: "", text: "", pending: false });
    }
    const multiples = (inst.HasForexMultiple ?? []).map((m) => Number(m.Value)).filter((v) => v > 0);
    const schema = orderSchema({ pip: inst.Pip, minLots: inst.ForexMinCont, maxLots: DEFAULT_MAX_LOTS, multiples });
    const submission = parseWithZod(withDotDecimals(formData), { schema });
    const csrfError = await checkCsrf(request, formData);
    if (csrfError) {
      return data({ kind: "error" as const, result: submission.reply({ formErrors: [csrfError] }), token: "", text: "", pending: false });
    }
    if (submission.status !== "success") {
      return data({ kind: "error" as const, result: submission.reply(), token: "", text: "", pending: false });
    }
    const v = submission.value;
    const r = await submitOrder(
      caller,
      {
        forex_id: inst.Id,
        type: v.type as 1 | 2,
        status: v.status as 0 | 1,
        cont: v.cont,
        multiple: v.multiple,
        target_price: v.target_price,
        target_profit_price: v.target_profit_price,
        stop_loss_price: v.stop_loss_price,
      },
      v.idempotency_key,
    );
    if (!r.ok) {
      return data({ kind: "error" as const, result: submission.reply({ formErrors: [r.msg] }), token: "", text: "", pending: false });
    }
    return data({
      kind: "success" as const,
      result: submission.reply(),
      token: v.idempotency_key,
      text: r.msg,
      pending: v.status === 0,
    });
  }

  if (intent === "close") {
    const signed = await getSignedIn(request);
    if (!signed) throw redirect(loginUrl(back));
    const csrfError = await checkCsrf(request, formData);
    if (csrfError) return redirectWithToast(request, back, { type: "error", text: csrfError });
    const submission = parseWithZod(formData, { schema: closeSchema });
    if (submission.status !== "success") {
      return redirectWithToast(request, back, { type: "error", text: t("trade:errors.order_id") });
    }
    const r = await closeOrder(caller, submission.value.id, submission.value.idempotency_key);
    return redirectWithToast(request, back, { type: r.ok ? "success" : "error", text: r.msg || t(r.ok ? "trade:positions.closed" : "common:error.title") });
  }

  return redirectWithToast(request, back, { type: "error", text: t("trade:errors.unknown_action") });
}

export default function TradeScreen() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("trade");
  const lang = useLang();
  const revalidator = useRevalidator();
  // A live close while a close (or a navigation) is under way waits for it (see the hook).
  const { busy, pending: refreshLater } = useRefreshAfterPosts<true>(useCallback(() => revalidator.revalidate(), [revalidator]));
  const inst = d.inst;

  const [quote, setQuote] = useState<Partial<DayMarketItem> | null>(null);
  const [liveRows, setLiveRows] = useState<Record<number, LiveRow>>({});
  const [closed, setClosed] = useState<Set<number>>(new Set());
  const [liveBalance, setLiveBalance] = useState<number | null>(null);
  const [pickerQuotes, setPickerQuotes] = useState<Record<number, { Close: number; Change: number }>>({});

  // A new page (instrument, period, revalidation) starts from the server's figures.
  useEffect(() => {
    setQuote(null);
    setLiveRows({});
    setClosed(new Set());
    setLiveBalance(null);
  }, [d]);

  const topics = useMemo(() => (d.signedIn ? ["DAY_MARKET", "FOREX_TRADE", "FOREX_CLOSED"] : ["DAY_MARKET"]), [d.signedIn]);
  const onLive = useCallback(
    (topic: string, payload: unknown) => {
      if (topic === "DAY_MARKET" && Array.isArray(payload)) {
        const items = payload as DayMarketItem[];
        const mine = inst ? items.find((q) => q && q.Id === inst.Id) : undefined;
        if (mine) setQuote((q) => ({ ...q, ...mine }));
        setPickerQuotes((prev) => {
          const next = { ...prev };
          for (const q of items) if (q && typeof q.Id === "number") next[q.Id] = { Close: q.Close, Change: q.Change };
          return next;
        });
      } else if (topic === "FOREX_TRADE" && payload && typeof payload === "object") {
        const p = payload as ForexTradePush;
        if (typeof p.Balance === "number") setLiveBalance(p.Balance);
        if (Array.isArray(p.TransOrder)) {
          const pushed = p.TransOrder;
          setLiveRows((prev) => mergeLiveRows(prev, pushed));
        }
      } else if (topic === "FOREX_CLOSED") {
        const ids = (payload as { ids?: unknown[] })?.ids ?? [];
        const known = new Set(d.positions.map((p) => p.Id));
        const mineClosed = ids.map(Number).filter((id) => known.has(id));
        if (mineClosed.length) {
          setClosed((prev) => new Set([...prev, ...mineClosed]));
          // the balance changed: refresh the server's figures
          if (busy.current) refreshLater.current = true;
          else if (revalidator.state === "idle") revalidator.revalidate();
        }
      }
    },
    [inst, d.positions, revalidator, busy, refreshLater],
  );
  useLive(topics, onLive);

  const onCandle = useCallback((c: { Close: number }) => setQuote((q) => ({ ...q, Close: c.Close })), []);

  if (!inst) {
    return (
      <div className="trade-screen">
        <h1 className="sr-only">{t("title")}</h1>
        <p className="empty">{t("no_instruments")}</p>
      </div>
    );
  }

  const fq = inst.ForexQuotations ?? ({} as Instrument["ForexQuotations"]);
  const q = { ...fq, ...(quote ?? {}) };
  const price = Number(q.Close);
  const marketOpen = (quote?.MarketStatus ?? inst.MarketStatus) === 1;
  const positions = d.positions.filter((p) => !closed.has(p.Id));
  const backHref = tradeHref(inst.Code, d.period);
  const result = actionData?.result as Parameters<typeof OrderForm>[0]["lastResult"];

  return (
    <div className="trade-screen">
      <header className="trade-head">
        <h1 className="sr-only">{t("title")}</h1>
        <InstrumentPicker current={inst} instruments={d.instruments as Instrument[]} period={d.period} quotes={pickerQuotes} />
        <div className="trade-price">
          <span className={`price ${signOf(q.Change)}`} data-testid="trade-price" aria-label={t("price")}>
            {formatPrice(price, inst.PricePrecision, lang)}
          </span>
          <span className={`change ${signOf(q.Change)}`} data-testid="trade-change">
            {formatChange(q.Change, lang)}
          </span>
          {!marketOpen ? <span className="badge badge-closed">{t("closed")}</span> : null}
        </div>
      </header>
      <dl className="trade-stats" data-testid="trade-stats">
        <div>
          <dt>{t("stats.high")}</dt>
          <dd data-testid="stat-high">{formatPrice(q.High, inst.PricePrecision, lang)}</dd>
        </div>
        <div>
          <dt>{t("stats.low")}</dt>
          <dd data-testid="stat-low">{formatPrice(q.Low, inst.PricePrecision, lang)}</dd>
        </div>
        <div>
          <dt>{t("stats.open")}</dt>
          <dd data-testid="stat-open">{formatPrice(q.Open, inst.PricePrecision, lang)}</dd>
        </div>
        <div>
          <dt>{t("stats.volume")}</dt>
          <dd data-testid="stat-volume">{formatVolume(q.Volume, lang)}</dd>
        </div>
      </dl>
      <PeriodBar code={inst.Code} period={d.period} />
      <LiveCandleChart
        key={`${inst.Code}-${d.period}`}
        candles={d.candles}
        code={inst.Code}
        period={d.period}
        precision={inst.PricePrecision}
        lang={lang}
        title={t("chart_title", { code: inst.ShowCode, period: t(`period.${d.period}`) })}
        onCandle={onCandle}
      />
      <a className="btn btn-link refresh-link" href={backHref}>
        {t("refresh")}
      </a>
      <OrderForm
        key={inst.Id}
        instrument={inst}
        feeType={d.feeType}
        balance={liveBalance ?? d.balance}
        signedIn={d.signedIn}
        price={price}
        marketOpen={marketOpen}
        idempotencyKey={d.formKey}
        lastResult={result}
      />
      {actionData?.kind === "success" ? (
        <OrderSuccess token={actionData.token} text={actionData.text} pending={actionData.pending} backHref={backHref} />
      ) : null}
      {d.signedIn ? (
        <PositionList positions={positions} precision={inst.PricePrecision} pip={inst.Pip} live={liveRows} keys={d.closeKeys} />
      ) : null}
    </div>
  );
}
