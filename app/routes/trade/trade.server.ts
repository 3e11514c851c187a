/** The trade screen's server side: the instrument, candles, estimates' inputs, positions; orders and closes. */
import type { RiskDisclosure } from "@contract/api/follow";
import { riskDisclosure } from "~/upstream/follow.server";
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { callerFor, dataOr, failureToast } from "~/upstream/client.server";
import { kline, tradeList } from "~/upstream/market.server";
import type { Instrument } from "@contract/api/market";
import { DEFAULT_PERIOD, isPeriod, type Period } from "@contract/constants";
import { getBasicInfo } from "~/upstream/settings.server";
import { closeOrder, forexDetail, myDeal, submitOrder } from "~/upstream/trading.server";
import {
  candleView,
  instrumentView,
  orderView,
  type CandleView,
  type InstrumentView,
  type OrderView,
} from "~/upstream/views";
import {
  DEFAULT_FEE_TYPE,
  ORDER_MODE,
  ORDER_TAB,
  type OrderMode,
  type OrderType,
} from "@contract/enums";
import type { PickerInstrument } from "~/components/trade/InstrumentPicker";
import { CANDLES_SHOWN } from "~/components/trade/candle-geometry";
import { getSignedIn, loginUrl } from "~/utils/session.server";
import { watchlistList } from "~/upstream/watchlists.server";
import { getT } from "~/i18n.server";
import { redirectWithToast } from "~/utils/toast.server";
import { newIdempotencyKey, readForm, refused, refusalStatus } from "~/utils/forms.server";
import { closeSchema, orderSchema, stepLots, DEFAULT_MAX_LOTS } from "~/schemas/order";
import type { Expiry } from "@contract/api/trading-rules";
import { pipsDistances } from "~/utils/pips";
import { decimalsOf, inputValue } from "~/utils/format";
import { dotDecimal, withDotDecimals } from "~/components/trade/decimal";
import { tradeHref } from "./href";
import { chartChoiceOf, chartFormSchema, keepChartChoice } from "~/utils/chart-choice.server";
import { DEFAULT_CHART_SETTINGS } from "@contract/api/chart-rules";
import { warmUp } from "~/components/trade/chart-series";

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

/** What the instrument picker lists of each instrument. */
function pickerItem(i: InstrumentView): PickerInstrument {
  return {
    id: i.id,
    code: i.code,
    showCode: i.showCode,
    precision: i.precision,
    marketOpen: i.marketOpen,
    quote: { close: i.quote.close, change: i.quote.change },
  };
}

/** Last price of every instrument by code: the USD rate of a quote currency comes from these. */
function closesOf(list: InstrumentView[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of list) if (i.quote.close > 0) out[i.code.toUpperCase()] = i.quote.close;
  return out;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["trade", "common"]);
  const codeParam = url.searchParams.get("code");

  const list = await tradeList(caller);
  const instruments = dataOr(list, []);
  const inst = pickInstrument(instruments, codeParam);
  const signed = await getSignedIn(request);
  // The period of the address, else the user's chosen one.
  const chart = await chartChoiceOf(request, caller, Boolean(signed));
  const periodParam = url.searchParams.get("period");
  const period: Period = isPeriod(periodParam) ? periodParam : chart.period;
  if (!inst) {
    return data({
      title: t("trade:title"),
      inst: null,
      instruments: [] as PickerInstrument[],
      closes: {} as Record<string, number>,
      period,
      chart: DEFAULT_CHART_SETTINGS,
      candles: [] as CandleView[],
      feeType: DEFAULT_FEE_TYPE as number,
      balance: null as number | null,
      signedIn: Boolean(signed),
      starred: null as boolean | null,
      favourites: null as string[] | null,
      positions: [] as OrderView[],
      closeKeys: {} as Record<number, string>,
      formKey: newIdempotencyKey(),
      disclosure: null as RiskDisclosure | null,
      toast: failureToast(list) ?? { type: "info" as const, text: t("trade:no_instruments") },
    });
  }

  const [candles, basic, detail, deals, watch, disclosure] = await Promise.all([
    kline(caller, { forex_id: inst.Id, period }),
    getBasicInfo(caller),
    signed ? forexDetail(caller) : Promise.resolve(null),
    signed
      ? myDeal(caller, { status: ORDER_TAB.HOLDING, page: 1, forex_id: inst.Id })
      : Promise.resolve(null),
    signed ? watchlistList(caller, { init: true }) : Promise.resolve(null),
    riskDisclosure(caller),
  ]);
  // The stars: the codes in Favourites (null: no stars, signed out); the header's for this one.
  const favourites = watch?.ok
    ? (watch.data.find((l) => l.kind === "favourites")?.items ?? []).map((i) => i.code)
    : null;
  const starred = favourites ? favourites.includes(inst.Code) : null;
  // Holdings of every instrument come paged (PAGE_SIZE a page): read a few more pages when there are more.
  const holdings = deals && deals.ok ? [...deals.data.data] : [];
  if (deals && deals.ok && deals.data.data.length > 0) {
    for (let page = 2; page <= 5 && holdings.length < deals.data.total; page++) {
      const more = await myDeal(caller, { status: ORDER_TAB.HOLDING, page, forex_id: inst.Id });
      if (!more.ok || more.data.data.length === 0) break;
      holdings.push(...more.data.data);
    }
  }
  const positions = holdings
    .filter((o) => {
      const fid = o.ForexTradeLists?.Id;
      if (fid !== undefined && fid !== null) return Number(fid) === inst.Id;
      const c = o.ForexTradeLists?.Code;
      return c ? c === inst.Code : true;
    })
    .map(orderView);
  const closeKeys: Record<number, string> = {};
  for (const p of positions) closeKeys[p.id] = newIdempotencyKey();
  const views = instruments.map(instrumentView);
  const unknownCode = codeParam && codeParam.toUpperCase() !== inst.Code.toUpperCase();
  const toast =
    failureToast(candles, ...(detail ? [detail] : []), ...(deals ? [deals] : [])) ??
    (unknownCode
      ? {
          type: "error" as const,
          text: t("trade:unknown_instrument", { code: codeParam!.slice(0, 32) }),
        }
      : null);
  return data(
    {
      title: `${inst.ShowCode} · ${t("trade:title")}`,
      inst: instrumentView(inst),
      instruments: views.map(pickerItem),
      closes: closesOf(views),
      period,
      chart,
      // Only the candles the chart shows and those its indicators start from.
      candles: dataOr(candles, [])
        .slice(-(CANDLES_SHOWN + warmUp(chart)))
        .map(candleView),
      // The upstream's fee type; the contract's default when the setting cannot be read.
      feeType:
        basic.ok && Number.isFinite(Number(basic.data.trade_fee_type))
          ? Number(basic.data.trade_fee_type)
          : DEFAULT_FEE_TYPE,
      balance: detail && detail.ok ? Number(detail.data.balance) : null,
      disclosure: disclosure.ok ? disclosure.data : null,
      signedIn: Boolean(signed),
      starred,
      favourites,
      positions,
      closeKeys,
      formKey: newIdempotencyKey(),
      toast,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const STRIP = new Set(["csrf", "intent", "idempotency_key", "step", "type"]);

/** The order form's schema for the posted instrument (a refusal when it is unknown). */
function submitSchemaFor(instruments: InstrumentView[]) {
  return (formData: FormData) => {
    const inst = instruments.find((i) => i.id === Number(formData.get("forex_id")));
    if (!inst)
      return z.object({
        forex_id: z.custom<number>(
          () => false,
          instruments.length ? "errors.instrument" : "no_instruments",
        ),
      });
    return orderSchema({
      pip: inst.lotStep,
      minLots: inst.minLots,
      maxLots: DEFAULT_MAX_LOTS,
      multiples: inst.leverages,
    });
  };
}

/**
 * The order form's take-profit and stop-loss (prices, or pips when so chosen), trailing stop,
 * break-even and expiry as the submit call's fields.
 */
function stopsAndTools(
  v: {
    target_profit_price?: number;
    stop_loss_price?: number;
    stop_unit: "price" | "pips";
    trailing_pips?: number;
    break_even_pips?: number;
    expiry: Expiry;
    expires_at?: string;
  },
  distances: { trailing_pips?: string; break_even_pips?: string },
) {
  const pips = v.stop_unit === "pips";
  return {
    target_profit_price: pips ? undefined : v.target_profit_price,
    stop_loss_price: pips ? undefined : v.stop_loss_price,
    target_profit_pips: pips && v.target_profit_price ? String(v.target_profit_price) : undefined,
    stop_loss_pips: pips && v.stop_loss_price ? String(v.stop_loss_price) : undefined,
    trailing_distance: distances.trailing_pips,
    break_even: distances.break_even_pips,
    expiry: v.expiry,
    expires_at: v.expires_at,
  };
}

const noOrder = { kind: "error" as const, token: "", text: "", pending: false };

export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["trade", "common", "chart"]);
  const wire = dataOr(await tradeList(caller), []);
  const instruments = wire.map(instrumentView);
  const form = await readForm(
    request,
    // The lot steppers without JavaScript: any posted values, the same form again with new lots.
    {
      submit: submitSchemaFor(instruments),
      close: closeSchema,
      step: z.object({}).passthrough(),
      chart: chartFormSchema,
    },
    {
      intentOf: (fd) =>
        fd.get("step") !== null && fd.get("intent") === "submit"
          ? "step"
          : (fd.get("intent") as string | null),
      prepare: withDotDecimals,
    },
  );
  const forexId = Number(form.formData.get("forex_id"));
  const picked =
    wire.find((i) => i.Id === forexId) ?? pickInstrument(wire, url.searchParams.get("code"));
  const inst = picked ? instrumentView(picked) : null;
  const code = inst?.code ?? url.searchParams.get("code") ?? DEFAULT_CODE;
  const back = tradeHref(code, url.searchParams.get("period") ?? DEFAULT_PERIOD);
  if (!form.ok) return refused(form, noOrder);

  if (form.intent === "chart") {
    const signedIn = Boolean(await getSignedIn(request));
    const kept = await keepChartChoice(caller, signedIn, form.value);
    if ("refused" in kept)
      return data(
        { ...noOrder, refusedIntent: "chart", result: form.reply({ formErrors: [kept.refused] }) },
        { status: 400 },
      );
    return redirectWithToast(
      request,
      tradeHref(code, String(form.value.period)),
      { type: "success", text: t("chart:saved") },
      { headers: kept.headers },
    );
  }

  if (form.intent === "step") {
    const stepDir = form.formData.get("step");
    const initialValue: Record<string, string> = {};
    for (const [k, v] of form.formData.entries())
      if (!STRIP.has(k) && typeof v === "string") initialValue[k] = v;
    if (inst && (stepDir === "up" || stepDir === "down")) {
      const rules = { pip: inst.lotStep, minLots: inst.minLots, maxLots: DEFAULT_MAX_LOTS };
      const lots = Number(dotDecimal(initialValue.cont ?? ""));
      const next = stepLots(
        Number.isFinite(lots) && lots > 0 ? lots : inst.minLots,
        stepDir === "up" ? 1 : -1,
        rules,
      );
      initialValue.cont = inputValue(
        next,
        Math.max(decimalsOf(inst.lotStep), decimalsOf(inst.minLots)),
      );
    }
    return data({
      kind: "step" as const,
      result: { initialValue },
      token: newIdempotencyKey(),
      text: "",
      pending: false,
    });
  }

  if (form.intent === "submit") {
    if (!(await getSignedIn(request)))
      throw redirect(loginUrl(`/trade?code=${encodeURIComponent(code)}`));
    const v = form.value;
    const distances = pipsDistances(
      { trailing_pips: v.trailing_pips, break_even_pips: v.break_even_pips },
      inst?.precision ?? 5,
    );
    if ("refused" in distances)
      return data(
        {
          ...noOrder,
          result: form.reply({ formErrors: ["errors.pips"] }),
        },
        { status: 400 },
      );
    const r = await submitOrder(
      caller,
      {
        forex_id: v.forex_id,
        type: v.type as OrderType,
        status: v.status as OrderMode,
        cont: v.cont,
        multiple: v.multiple,
        target_price: v.target_price,
        ...stopsAndTools(v, distances),
      },
      v.idempotency_key,
    );
    if (!r.ok)
      return data(
        { ...noOrder, result: form.reply({ formErrors: [r.msg] }) },
        { status: refusalStatus(r) },
      );
    return data({
      kind: "success" as const,
      result: form.reply(),
      token: v.idempotency_key,
      text: r.msg,
      pending: v.status === ORDER_MODE.PENDING,
    });
  }

  if (!(await getSignedIn(request))) throw redirect(loginUrl(back));
  const r = await closeOrder(caller, form.value.id, form.idempotencyKey ?? undefined);
  return redirectWithToast(request, back, {
    type: r.ok ? "success" : "error",
    text: r.msg || t(r.ok ? "trade:positions.closed" : "common:error.title"),
  });
}
