/** The orders screen's server side: the tab's page of orders, the summary, one order's detail; stops, closes, cancels. */
import { riskDisclosure } from "~/upstream/follow.server";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { callerFor, failureToast } from "~/upstream/client.server";
import {
  cancelTrade,
  closeOrder,
  forexDetail,
  myDeal,
  setStopPrice,
  setTrailing,
} from "~/upstream/trading.server";
import { partCloseSchema, trailingSchema } from "~/schemas/trader-tools";
import { pipsDistances } from "~/utils/pips";
import type { Order, OrderPage } from "@contract/api/trading";
import { tradeList } from "~/upstream/market.server";
import { copyDetail, copyList } from "~/upstream/follow.server";
import { requireSignedIn } from "~/utils/session.server";
import { getT } from "~/i18n.server";
import { redirectWithToast } from "~/utils/toast.server";
import { newIdempotencyKey, readForm, refused, refusalStatus } from "~/utils/forms.server";
import { cancelSchema, closeSchema } from "~/schemas/order";
import { stopPriceSchema } from "~/schemas/stop-price";
import { accountView, instrumentView, orderView, type AccountView } from "~/upstream/views";
import { PAGE_SIZE } from "@contract/constants";
import { ORDER_STATUS, ORDER_TAB, ORDER_TABS, type OrderTab } from "@contract/enums";
import { listHref } from "./href";

/** The tab asked for (?status=1|0|3); holding when absent or unknown. */
function parseStatus(v: string | null): OrderTab {
  const n = Number(v);
  return v !== null && v !== "" && (ORDER_TABS as readonly number[]).includes(n)
    ? (n as OrderTab)
    : ORDER_TAB.HOLDING;
}

/** The tab an order is listed under. */
function tabOf(status: number): OrderTab {
  return status === ORDER_STATUS.PENDING
    ? ORDER_TAB.PENDING
    : status === ORDER_STATUS.OPEN
      ? ORDER_TAB.HOLDING
      : ORDER_TAB.HISTORY;
}

function parsePage(v: string | null): number {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

/**
 * The open positions of the user's copies that are not stopped, each group with its provider: they
 * belong to each copy's own account, so my_deal does not list them (Holding tab only).
 */
async function copiedPositions(caller: Awaited<ReturnType<typeof callerFor>>) {
  const list = await copyList(caller);
  if (!list.ok) return [];
  const open = list.data.filter((c) => c.status !== "stopped" && c.open_positions > 0);
  const details = await Promise.all(open.map((c) => copyDetail(caller, c.id)));
  return details.flatMap((r) =>
    r.ok && r.data.positions.length > 0
      ? [
          {
            copyId: r.data.id,
            provider: r.data.provider_name,
            positions: r.data.positions.map(orderView),
          },
        ]
      : [],
  );
}

/** The price decimals of instrument `forexId` (5 when it is not listed: the upstream checks again). */
async function precisionOf(caller: Awaited<ReturnType<typeof callerFor>>, forexId: number) {
  const list = await tradeList(caller);
  const inst = list.ok ? list.data.map(instrumentView).find((i) => i.id === forexId) : undefined;
  return inst?.precision ?? 5;
}

/** Instrument price precision and lot step by id (for formatting), from trade_list. */
type InstInfo = Record<number, { precision: number; lotStep: number }>;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const url = new URL(request.url);
  const status = parseStatus(url.searchParams.get("status"));
  const page = parsePage(url.searchParams.get("page"));
  const detailId = Number(url.searchParams.get("detail")) || 0;
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["order", "trade", "common"]);

  const [detail, deals, list, copied, disclosure] = await Promise.all([
    forexDetail(caller),
    myDeal(caller, { status, page }),
    tradeList(caller),
    status === ORDER_TAB.HOLDING && page === 1 ? copiedPositions(caller) : Promise.resolve([]),
    riskDisclosure(caller),
  ]);
  const pageData: OrderPage = deals.ok
    ? deals.data
    : { data: [], total: 0, all_fact_profits: 0, balance: 0 };
  const inst: InstInfo = {};
  if (list.ok)
    for (const i of list.data.map(instrumentView))
      inst[i.id] = { precision: i.precision, lotStep: i.lotStep };

  // The order of an open detail: on this page, or found on the first pages of the tabs.
  let detailOrder: Order | null = null;
  let detailTab: number = status;
  let toast = failureToast(detail, deals);
  if (detailId) {
    detailOrder = pageData.data.find((o) => o.Id === detailId) ?? null;
    for (const st of ORDER_TABS) {
      if (detailOrder) break;
      for (let p = 1; p <= 3 && !detailOrder; p++) {
        const r = await myDeal(caller, { status: st, page: p });
        if (!r.ok) break;
        detailOrder = r.data.data.find((o) => o.Id === detailId) ?? null;
        if (detailOrder) detailTab = st;
        if (r.data.data.length < PAGE_SIZE) break;
      }
    }
    if (!detailOrder && !toast) toast = { type: "error", text: t("order:detail.not_found") };
    if (detailOrder && typeof detailOrder.Status === "number")
      detailTab = tabOf(detailOrder.Status);
  }

  const summary: AccountView = accountView(detail.ok ? detail.data : null);
  if (!detail.ok && deals.ok) summary.balance = pageData.balance;

  return data(
    {
      title: t("order:title"),
      status,
      page,
      rows: pageData.data.map(orderView),
      total: pageData.total,
      hasNext: page * PAGE_SIZE < pageData.total && pageData.data.length > 0,
      summary,
      inst,
      detail: detailOrder ? orderView(detailOrder) : null,
      copied,
      disclosure: disclosure.ok ? disclosure.data : null,
      detailTab,
      detailKeys: {
        stop: newIdempotencyKey(),
        close: newIdempotencyKey(),
        cancel: newIdempotencyKey(),
        trail: newIdempotencyKey(),
        part: newIdempotencyKey(),
      },
      toast,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const url = new URL(request.url);
  const status = parseStatus(url.searchParams.get("status"));
  const page = parsePage(url.searchParams.get("page"));
  const form = await readForm(request, {
    stop: stopPriceSchema,
    close: closeSchema,
    cancel: cancelSchema,
    trail: trailingSchema,
    close_part: partCloseSchema,
  });
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["order", "trade", "common"]);
  const list = listHref(status, page);

  if (form.intent === "stop") {
    const v = form.value;
    const r = await setStopPrice(
      caller,
      { id: v.id, target_profit_price: v.target_profit_price, stop_loss_price: v.stop_loss_price },
      form.idempotencyKey ?? undefined,
    );
    if (!r.ok)
      return data(
        { refusedIntent: "stop", result: form.reply({ formErrors: [r.msg] }) },
        { status: refusalStatus(r) },
      );
    return redirectWithToast(request, listHref(status, page, v.id), {
      type: "success",
      text: r.msg || t("order:detail.stops_saved"),
    });
  }

  if (form.intent === "trail") {
    const v = form.value;
    // Pips become price distances at the instrument's decimals (the upstream checks them again).
    const precision = await precisionOf(caller, Number(form.formData.get("forex_id")));
    const typed = {
      trailing_pips: v.trailing_pips,
      activation_pips: v.activation_pips,
      break_even_pips: v.break_even_pips,
    };
    const distances = pipsDistances(typed, precision);
    if ("refused" in distances)
      return data(
        {
          refusedIntent: "trail",
          result: form.reply({ formErrors: ["errors.pips"] }),
        },
        { status: 400 },
      );
    const r = await setTrailing(
      caller,
      {
        id: v.id,
        trailing_distance: distances.trailing_pips,
        trailing_activation: distances.activation_pips,
        break_even: distances.break_even_pips,
      },
      form.idempotencyKey ?? undefined,
    );
    if (!r.ok)
      return data(
        { refusedIntent: "trail", result: form.reply({ formErrors: [r.msg] }) },
        { status: refusalStatus(r) },
      );
    return redirectWithToast(request, listHref(status, page, v.id), {
      type: "success",
      text: r.msg || t("order:detail.trailing_saved"),
    });
  }

  if (form.intent === "close_part") {
    const v = form.value;
    const r = await closeOrder(caller, v.id, form.idempotencyKey ?? undefined, String(v.lots));
    if (!r.ok)
      return data(
        { refusedIntent: "close_part", result: form.reply({ formErrors: [r.msg] }) },
        { status: refusalStatus(r) },
      );
    return redirectWithToast(request, listHref(status, page, v.id), {
      type: "success",
      text: r.msg || t("order:detail.part_closed"),
    });
  }

  const { id } = form.value;
  const r =
    form.intent === "close"
      ? await closeOrder(caller, id, form.idempotencyKey ?? undefined)
      : await cancelTrade(caller, id, form.idempotencyKey ?? undefined);
  if (!r.ok)
    return redirectWithToast(request, listHref(status, page, id), { type: "error", text: r.msg });
  return redirectWithToast(request, list, {
    type: "success",
    text: r.msg || t(form.intent === "close" ? "trade:positions.closed" : "order:detail.cancelled"),
  });
}
