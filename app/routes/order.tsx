/**
 * /order?status=1|0|3&page=N&detail=ID — the account's orders (login required): tabs Holding (1),
 * Pending (0), History (3) as links; the summary card; a paged list (page links without JavaScript,
 * infinite scroll and pull to refresh with it); the detail of one order as a dialog (?detail=ID)
 * with take-profit / stop-loss editing, cancel (pending) and close (holding).
 *
 * Action intents: close, cancel, stop — each answered by a redirect with a toast holding the
 * upstream's msg (stop's field errors are shown in the dialog instead).
 * Live with JavaScript: FOREX_TRADE (profit per row, summary) and FOREX_CLOSED (rows leave Holding;
 * an open detail of a closed position goes back to the list).
 */
import { data, type ActionFunctionArgs, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useFetcher, useLoaderData, useLocation, useNavigate, useRevalidator } from "@remix-run/react";
import { parseWithZod } from "@conform-to/zod";
import { useTranslation } from "react-i18next";
import { useCallback, useEffect, useMemo, useRef, useState, type TouchEvent } from "react";
import { callerFor, failureToast } from "~/upstream/client.server";
import { cancelTrade, closeOrder, forexDetail, myDeal, setStopPrice, type Order, type OrderPage } from "~/upstream/trading.server";
import { orderCode } from "~/lib/orders";
import { tradeList } from "~/upstream/market.server";
import { requireSignedIn } from "~/session.server";
import { checkCsrf } from "~/csrf.server";
import { getT } from "~/i18n.server";
import { redirectWithToast } from "~/toast.server";
import { cancelSchema, closeSchema } from "~/schemas/order";
import { stopPriceSchema } from "~/schemas/stop-price";
import { formatLots, formatPrice, formatProfit, signOf } from "~/lib/format";
import { useLive } from "~/live/useLive";
import { PageHeader } from "~/components/PageHeader";
import { SummaryCard, type Summary } from "~/components/trade/SummaryCard";
import { OrderDetail } from "~/components/trade/OrderDetail";
import type { LiveRow } from "~/components/trade/PositionList";
import { useHydrated, useLang, mergeLiveRows, useRefreshAfterPosts, type ForexTradePush } from "~/components/trade/hooks";
import tradeStyles from "~/styles/trade.css";

export const handle = { i18n: ["order", "trade"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: tradeStyles }];

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [{ title: d?.title ?? "Tradepost" }];

const TABS = [
  { status: 1, key: "tabs.holding" },
  { status: 0, key: "tabs.pending" },
  { status: 3, key: "tabs.history" },
] as const;

/** Page size of my_deal (upstream/API.md); used only to decide whether a next page exists. */
const PAGE_SIZE = 20;

function parseStatus(v: string | null): 0 | 1 | 3 {
  return v === "0" ? 0 : v === "3" ? 3 : 1;
}

function parsePage(v: string | null): number {
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : 1;
}

export function listHref(status: number, page = 1, detail?: number): string {
  const q = new URLSearchParams({ status: String(status) });
  if (page > 1) q.set("page", String(page));
  if (detail) q.set("detail", String(detail));
  return `/order?${q.toString()}`;
}

/** Instrument precision and lot step by id (for formatting), from trade_list. */
type InstInfo = Record<number, { p: number; pip: number }>;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const url = new URL(request.url);
  const status = parseStatus(url.searchParams.get("status"));
  const page = parsePage(url.searchParams.get("page"));
  const detailId = Number(url.searchParams.get("detail")) || 0;
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["order", "trade", "common"]);

  const [detail, deals, list] = await Promise.all([forexDetail(caller), myDeal(caller, { status, page }), tradeList(caller)]);
  const pageData: OrderPage = deals.ok ? deals.data : { data: [], total: 0, all_fact_profits: 0, balance: 0 };
  const inst: InstInfo = {};
  if (list.ok) for (const i of list.data) inst[i.Id] = { p: i.PricePrecision, pip: i.Pip };

  // The order of an open detail: on this page, or found on the first pages of the tabs.
  let detailOrder: Order | null = null;
  let detailTab: number = status;
  let toast = failureToast(detail, deals);
  if (detailId) {
    detailOrder = pageData.data.find((o) => o.Id === detailId) ?? null;
    for (const st of [1, 0, 3] as const) {
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
    if (detailOrder && typeof detailOrder.Status === "number") {
      detailTab = detailOrder.Status === 0 ? 0 : detailOrder.Status === 1 ? 1 : 3;
    }
  }

  const a = detail.ok ? detail.data : null;
  const summary: Summary = {
    balance: a ? Number(a.balance) : deals.ok ? pageData.balance : null,
    total: a ? Number(a.total) : null,
    all_caution_money: a ? Number(a.all_caution_money) : null,
    can_use: a ? Number(a.can_use) : null,
    HazardRate: a && a.HazardRate !== null && a.HazardRate !== undefined ? Number(a.HazardRate) : null,
    // total floating profit = equity - balance (the same as the holding list's all_fact_profits)
    profit: a ? Number((Number(a.total) - Number(a.balance)).toFixed(6)) : null,
  };

  return data(
    {
      title: t("order:title"),
      status,
      page,
      orders: pageData.data,
      total: pageData.total,
      hasNext: page * PAGE_SIZE < pageData.total && pageData.data.length > 0,
      summary,
      inst,
      detail: detailOrder,
      detailTab,
      detailKeys: { stop: crypto.randomUUID(), close: crypto.randomUUID(), cancel: crypto.randomUUID() },
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
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const caller = await callerFor(request);
  const t = await getT(caller.lang, ["order", "trade", "common"]);
  const list = listHref(status, page);
  const csrfError = await checkCsrf(request, formData);

  if (intent === "stop") {
    const submission = parseWithZod(formData, { schema: stopPriceSchema });
    const id = Number(formData.get("id")) || undefined;
    const here = listHref(status, page, id);
    if (csrfError) return data({ result: submission.reply({ formErrors: [csrfError] }) });
    if (submission.status !== "success") return data({ result: submission.reply() });
    const v = submission.value;
    const r = await setStopPrice(caller, { id: v.id, target_profit_price: v.target_profit_price, stop_loss_price: v.stop_loss_price }, v.idempotency_key);
    if (!r.ok) return data({ result: submission.reply({ formErrors: [r.msg] }) });
    return redirectWithToast(request, here, { type: "success", text: r.msg || t("order:detail.stops_saved") });
  }

  if (csrfError) return redirectWithToast(request, list, { type: "error", text: csrfError });

  if (intent === "close" || intent === "cancel") {
    const submission = parseWithZod(formData, { schema: intent === "close" ? closeSchema : cancelSchema });
    if (submission.status !== "success") return redirectWithToast(request, list, { type: "error", text: t("trade:errors.order_id") });
    const { id, idempotency_key } = submission.value;
    const r = intent === "close" ? await closeOrder(caller, id, idempotency_key) : await cancelTrade(caller, id, idempotency_key);
    if (!r.ok) return redirectWithToast(request, listHref(status, page, id), { type: "error", text: r.msg });
    return redirectWithToast(request, list, { type: "success", text: r.msg || t(intent === "close" ? "trade:positions.closed" : "order:detail.cancelled") });
  }

  return redirectWithToast(request, list, { type: "error", text: t("trade:errors.unknown_action") });
}

export default function OrderScreen() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation(["order", "trade"]);
  const lang = useLang();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const location = useLocation();
  const revalidator = useRevalidator();
  // A live close while a close or cancel (or a navigation) is under way waits for it (see the hook).
  const { busy, pending: refreshLater } = useRefreshAfterPosts<"list" | "revalidate">(
    useCallback(
      (what) => {
        if (what === "list") navigate(listHref(d.status, d.page), { replace: true, preventScrollReset: true });
        else revalidator.revalidate();
      },
      [revalidator, navigate, d.status, d.page],
    ),
  );

  // Rows: this page from the server, plus pages appended by infinite scroll.
  const [extra, setExtra] = useState<Order[]>([]);
  const [nextPage, setNextPage] = useState<number | null>(d.hasNext ? d.page + 1 : null);
  const [liveRows, setLiveRows] = useState<Record<number, LiveRow>>({});
  const [liveSummary, setLiveSummary] = useState<Partial<Summary>>({});
  const [closed, setClosed] = useState<Set<number>>(new Set());
  useEffect(() => {
    setExtra([]);
    setNextPage(d.hasNext ? d.page + 1 : null);
    setLiveSummary({});
    setClosed(new Set());
  }, [d]);

  const more = useFetcher<typeof loader>();
  useEffect(() => {
    const md = more.data;
    if (!md || md.status !== d.status) return;
    setExtra((prev) => {
      const seen = new Set([...d.orders, ...prev].map((o) => o.Id));
      return [...prev, ...md.orders.filter((o) => !seen.has(o.Id))];
    });
    setNextPage(md.hasNext ? md.page + 1 : null);
  }, [more.data, d.status, d.orders]);

  const sentinel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = sentinel.current;
    if (!el || nextPage === null || typeof IntersectionObserver === "undefined") return;
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && more.state === "idle") more.load(listHref(d.status, nextPage));
    }, { rootMargin: "200px" });
    io.observe(el);
    return () => io.disconnect();
  }, [nextPage, d.status, more, hydrated]);

  // Pull to refresh: pulling down at the top reloads the list; the spinner closes after 500 ms.
  const [pull, setPull] = useState<{ startY: number; dy: number } | null>(null);
  const [refreshing, setRefreshing] = useState(false);
  const onTouchStart = (e: TouchEvent) => {
    if (window.scrollY <= 0) setPull({ startY: e.touches[0].clientY, dy: 0 });
  };
  const onTouchMove = (e: TouchEvent) => {
    if (pull) setPull({ ...pull, dy: Math.max(0, e.touches[0].clientY - pull.startY) });
  };
  const onTouchEnd = () => {
    if (pull && pull.dy > 70) refresh();
    setPull(null);
  };
  const refresh = () => {
    setRefreshing(true);
    revalidator.revalidate();
    setTimeout(() => setRefreshing(false), 500);
  };

  const detailOpenId = d.detail?.Id ?? null;
  const onLive = useCallback(
    (topic: string, payload: unknown) => {
      if (topic === "FOREX_TRADE" && payload && typeof payload === "object") {
        const p = payload as ForexTradePush;
        setLiveSummary({
          ...(typeof p.Balance === "number" ? { balance: p.Balance } : {}),
          ...(typeof p.Total === "number" ? { total: p.Total } : {}),
          ...(typeof p.CautionMoneyAll === "number" ? { all_caution_money: p.CautionMoneyAll } : {}),
          ...(typeof p.CanUse === "number" ? { can_use: p.CanUse } : {}),
          ...("HazardRate" in p ? { HazardRate: p.HazardRate ?? null } : {}),
          ...(typeof p.ProfitsTotal === "number" ? { profit: p.ProfitsTotal } : {}),
          marginCall: Boolean(p.MarginCall),
        });
        if (Array.isArray(p.TransOrder)) {
          const pushed = p.TransOrder;
          setLiveRows((prev) => mergeLiveRows(prev, pushed));
        }
      } else if (topic === "FOREX_CLOSED") {
        const ids = ((payload as { ids?: unknown[] })?.ids ?? []).map(Number).filter(Number.isFinite);
        if (!ids.length) return;
        setClosed((prev) => new Set([...prev, ...ids]));
        const toList = detailOpenId !== null && ids.includes(detailOpenId) && d.detailTab === 1;
        if (busy.current) {
          refreshLater.current = toList || refreshLater.current === "list" ? "list" : "revalidate";
          return;
        }
        if (toList) {
          navigate(listHref(d.status, d.page), { replace: true, preventScrollReset: true });
        } else if (revalidator.state === "idle") {
          revalidator.revalidate();
        }
      }
    },
    [detailOpenId, d.detailTab, d.status, d.page, navigate, revalidator, busy, refreshLater],
  );
  useLive(["FOREX_TRADE", "FOREX_CLOSED"], onLive);

  const rows = useMemo(() => {
    const all = [...d.orders, ...extra];
    return d.status === 1 ? all.filter((o) => !closed.has(o.Id)) : all;
  }, [d.orders, extra, closed, d.status]);
  const summary: Summary = { ...d.summary, ...liveSummary };
  const precisionOf = (o: Order) => d.inst[o.ForexTradeLists?.Id ?? -1]?.p ?? (o.ForexTradeLists?.PricePrecision as number | undefined) ?? 5;
  const pipOf = (o: Order) => d.inst[o.ForexTradeLists?.Id ?? -1]?.pip ?? 0.01;
  const backHref = listHref(d.status, d.page);
  const detailVisible = d.detail && !(closed.has(d.detail.Id) && d.detailTab === 1);
  const stopResult = actionData && "result" in actionData ? (actionData.result as Parameters<typeof OrderDetail>[0]["lastResult"]) : null;

  return (
    <div className="order-screen" onTouchStart={onTouchStart} onTouchMove={onTouchMove} onTouchEnd={onTouchEnd}>
      <PageHeader
        title={t("order:title")}
        actions={
          <Link to={location.pathname + location.search} className="iconbtn" aria-label={t("order:refresh")} reloadDocument={!hydrated} onClick={hydrated ? (e) => { e.preventDefault(); refresh(); } : undefined}>
            ↻
          </Link>
        }
      />
      {refreshing || (pull && pull.dy > 20) ? (
        <div className="pull-spinner" role="status" aria-label={t("order:refreshing")} data-testid="pull-spinner" style={pull ? { height: Math.min(pull.dy, 80) } : undefined}>
          <span className="spinner" aria-hidden="true" />
        </div>
      ) : null}
      <SummaryCard s={summary} />
      <nav className="order-tabs" aria-label={t("order:tabs.label")}>
        {TABS.map((tab) => (
          <Link
            key={tab.status}
            to={listHref(tab.status)}
            className={tab.status === d.status ? "otab active" : "otab"}
            aria-current={tab.status === d.status ? "page" : undefined}
            data-testid={`tab-${tab.status}`}
          >
            {t(`order:${tab.key}`)}
          </Link>
        ))}
      </nav>
      <section aria-label={t(`order:${TABS.find((x) => x.status === d.status)!.key}`)}>
        {rows.length === 0 ? (
          <p className="empty" data-testid="order-empty">
            {t("order:empty")}
          </p>
        ) : (
          <ul className="order-list">
            {rows.map((o) => {
              const l = liveRows[o.Id];
              const profit = d.status === 1 && l ? l.FactProfits : o.FactProfits;
              const price = d.status === 1 && l ? l.UpdatePrice : o.UpdatePrice;
              const buy = o.OrderType === 1;
              const p = precisionOf(o);
              const cancelled = d.status === 3 && o.Status === 4;
              return (
                <li key={o.Id} className="order-row" data-testid="order-row" data-order-id={o.Id}>
                  <Link to={listHref(d.status, d.page, o.Id)} className="order-row-link" preventScrollReset aria-label={t("order:row_label", { code: orderCode(o), id: o.Id })}>
                    <div className="order-row-main">
                      <span className="order-code">{orderCode(o)}</span>
                      <span className={buy ? "dir buy" : "dir sell"}>{buy ? t("trade:buy") : t("trade:sell")}</span>
                      <span className="order-lots">{t("trade:lots_value", { lots: formatLots(o.Quantity, pipOf(o), lang) })}</span>
                      {cancelled ? <span className="badge">{t("order:cancelled")}</span> : null}
                    </div>
                    <div className="order-row-prices">
                      <span>{formatPrice(d.status === 0 ? o.OriginPrice : o.Price || o.OriginPrice, p, lang)}</span>
                      <span className="flip-rtl" aria-hidden="true">→</span>
                      <span data-testid="order-price">{formatPrice(price, p, lang)}</span>
                    </div>
                    <div className="order-row-side">
                      {d.status === 0 ? (
                        <span className="order-time">{o.CreateTimeHandler ?? ""}</span>
                      ) : (
                        <span className={`profit ${signOf(profit)}`} data-testid="order-profit">
                          {formatProfit(profit, lang)}
                        </span>
                      )}
                    </div>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
        {hydrated && nextPage !== null ? (
          <div ref={sentinel} className="list-sentinel" data-testid="list-sentinel">
            {more.state !== "idle" ? <span className="spinner" role="status" aria-label={t("order:loading")} /> : null}
          </div>
        ) : null}
        {!hydrated && (d.page > 1 || d.hasNext) ? (
          <nav className="pager" aria-label={t("order:pager")}>
            {d.page > 1 ? (
              <Link to={listHref(d.status, d.page - 1)} rel="prev">
                {t("order:prev_page")}
              </Link>
            ) : (
              <span />
            )}
            <span>{t("order:page_of", { page: d.page, pages: Math.max(1, Math.ceil(d.total / PAGE_SIZE)) })}</span>
            {d.hasNext ? (
              <Link to={listHref(d.status, d.page + 1)} rel="next">
                {t("order:next_page")}
              </Link>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
      </section>
      {detailVisible && d.detail ? (
        <OrderDetail
          key={d.detail.Id}
          order={d.detail}
          code={orderCode(d.detail)}
          precision={precisionOf(d.detail)}
          pip={pipOf(d.detail)}
          tab={d.detailTab}
          live={d.detailTab === 1 ? liveRows[d.detail.Id] : undefined}
          keys={d.detailKeys}
          backHref={backHref}
          lastResult={stopResult}
        />
      ) : null}
    </div>
  );
}
