/** The trade screen's server side: the instrument, candles, estimates' inputs, positions; orders and closes. */
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { callerFor, dataOr, failureToast } from "~/upstream/client.server";
import { PERIODS, kline, tradeList, type Instrument, type Period } from "~/upstream/market.server";
import { getBasicInfo } from "~/upstream/settings.server";
import { closeOrder, forexDetail, myDeal, orderForexId, submitOrder, type Order } from "~/upstream/trading.server";
import { getSignedIn, loginUrl } from "~/utils/session.server";
import { getT } from "~/i18n.server";
import { redirectWithToast } from "~/utils/toast.server";
import { newIdempotencyKey, readForm, refused } from "~/utils/forms.server";
import { closeSchema, orderSchema, stepLots, DEFAULT_MAX_LOTS } from "~/schemas/order";
import { decimalsOf, inputValue } from "~/utils/format";
import { dotDecimal, withDotDecimals } from "~/components/trade/decimal";
import { tradeHref } from "./href";

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
      formKey: newIdempotencyKey(),
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
  for (const p of positions) closeKeys[p.Id] = newIdempotencyKey();
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
      formKey: newIdempotencyKey(),
      toast,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const STRIP = new Set(["csrf", "intent", "idempotency_key", "step", "type"]);

/** The order form's schema for the posted instrument (a refusal when it is unknown). */
function submitSchemaFor(instruments: Instrument[]) {
  return (formData: FormData) => {
    const inst = instruments.find((i) => i.Id === Number(formData.get("forex_id")));
    if (!inst) return z.object({ forex_id: z.custom<number>(() => false, instruments.length ? "errors.instrument" : "no_instruments") });
    const multiples = (inst.HasForexMultiple ?? []).map((m) => Number(m.Value)).filter((v) => v > 0);
    return orderSchema({ pip: inst.Pip, minLots: inst.ForexMinCont, maxLots: DEFAULT_MAX_LOTS, multiples });
  };
}

const noOrder = { kind: "error" as const, token: "", text: "", pending: false };

export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["trade", "common"]);
  const instruments = dataOr(await tradeList(caller), []);
  const form = await readForm(
    request,
    // The lot steppers without JavaScript: any posted values, the same form again with new lots.
    { submit: submitSchemaFor(instruments), close: closeSchema, step: z.object({}).passthrough() },
    {
      intentOf: (fd) => (fd.get("step") !== null && fd.get("intent") === "submit" ? "step" : (fd.get("intent") as string | null)),
      prepare: withDotDecimals,
    },
  );
  const forexId = Number(form.formData.get("forex_id"));
  const inst = instruments.find((i) => i.Id === forexId) ?? pickInstrument(instruments, url.searchParams.get("code"));
  const code = inst?.Code ?? url.searchParams.get("code") ?? DEFAULT_CODE;
  const back = tradeHref(code, url.searchParams.get("period") ?? "1min");
  if (!form.ok) return refused(form, noOrder);

  if (form.intent === "step") {
    const stepDir = form.formData.get("step");
    const initialValue: Record<string, string> = {};
    for (const [k, v] of form.formData.entries()) if (!STRIP.has(k) && typeof v === "string") initialValue[k] = v;
    if (inst && (stepDir === "up" || stepDir === "down")) {
      const rules = { pip: inst.Pip, minLots: inst.ForexMinCont, maxLots: DEFAULT_MAX_LOTS };
      const lots = Number(dotDecimal(initialValue.cont ?? ""));
      const next = stepLots(Number.isFinite(lots) && lots > 0 ? lots : inst.ForexMinCont, stepDir === "up" ? 1 : -1, rules);
      initialValue.cont = inputValue(next, Math.max(decimalsOf(inst.Pip), decimalsOf(inst.ForexMinCont)));
    }
    return data({ kind: "step" as const, result: { initialValue }, token: newIdempotencyKey(), text: "", pending: false });
  }

  if (form.intent === "submit") {
    if (!(await getSignedIn(request))) throw redirect(loginUrl(`/trade?code=${encodeURIComponent(code)}`));
    const v = form.value;
    const r = await submitOrder(
      caller,
      {
        forex_id: v.forex_id,
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
    if (!r.ok) return data({ ...noOrder, result: form.reply({ formErrors: [r.msg] }) });
    return data({ kind: "success" as const, result: form.reply(), token: v.idempotency_key, text: r.msg, pending: v.status === 0 });
  }

  if (!(await getSignedIn(request))) throw redirect(loginUrl(back));
  const r = await closeOrder(caller, form.value.id, form.idempotencyKey ?? undefined);
  return redirectWithToast(request, back, { type: r.ok ? "success" : "error", text: r.msg || t(r.ok ? "trade:positions.closed" : "common:error.title") });
}
