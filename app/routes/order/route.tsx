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
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import {
  Link,
  useActionData,
  useLoaderData,
  useLocation,
  useNavigate,
  useRevalidator,
} from "@remix-run/react";
import { useTranslation } from "~/translation";
import { useCallback, useMemo } from "react";
import type { OrderView } from "~/upstream/views";
import { PAGE_SIZE } from "@contract/constants";
import { ORDER_STATUS, ORDER_TAB, ORDER_TABS } from "@contract/enums";
import { formatDateTime, formatLots, formatPrice, formatProfit, signOf } from "~/utils/format";
import { useInfiniteList } from "~/hooks/useInfiniteList";
import { usePullToRefresh } from "~/hooks/usePullToRefresh";
import { useLiveAccount } from "~/hooks/useLiveAccount";
import { PageHeader } from "~/components/PageHeader";
import { RiskDisclosure } from "~/components/risk/RiskDisclosure";
import { FormErrors, refusalMessages } from "~/components/Form";
import { SummaryCard, type Summary } from "~/components/trade/SummaryCard";
import { OrderDetail } from "~/components/trade/OrderDetail";
import { useHydrated, useLang } from "~/components/trade/hooks";
import { useRefreshAfterPosts } from "~/hooks/useRefreshAfterPosts";
import tradeStyles from "~/styles/trade.css";
import riskStyles from "~/styles/risk.css";
import { listHref } from "./href";
import { copyHref } from "~/utils/copy-href";
import type { action, loader } from "./order.server";

export { action, loader } from "./order.server";

const orderId = (o: OrderView) => o.id;

export const handle = { i18n: ["order", "trade", "copy", "risk"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: riskStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.title ?? "Tradepost" },
];

/** The tabs in the contract's order, with their label keys. */
const TAB_KEY: Record<number, string> = {
  [ORDER_TAB.HOLDING]: "tabs.holding",
  [ORDER_TAB.PENDING]: "tabs.pending",
  [ORDER_TAB.HISTORY]: "tabs.history",
};
const TABS = ORDER_TABS.map((status) => ({ status, key: TAB_KEY[status] }));

export default function OrderScreen() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation(["order", "trade", "copy"]);
  const lang = useLang();
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const location = useLocation();
  const revalidator = useRevalidator();
  // A live close while a close or cancel (or a navigation) is under way waits for it (see the hook).
  const { pending: refreshLater, later } = useRefreshAfterPosts<"list" | "revalidate">(
    useCallback(
      (what) => {
        if (what === "list")
          navigate(listHref(d.status, d.page), { replace: true, preventScrollReset: true });
        else revalidator.revalidate();
      },
      [revalidator, navigate, d.status, d.page],
    ),
  );

  const list = useInfiniteList({
    first: d,
    pageHref: useCallback((n: number) => listHref(d.status, n), [d.status]),
    idOf: orderId,
    sameList: useCallback((md: typeof d) => md.status === d.status, [d.status]),
  });
  const pull = usePullToRefresh();

  const detailOpenId = d.detail?.id ?? null;
  const onClosed = useCallback(
    (ids: number[]) => {
      const toList =
        detailOpenId !== null && ids.includes(detailOpenId) && d.detailTab === ORDER_TAB.HOLDING;
      refreshLater.current = toList || refreshLater.current === "list" ? "list" : "revalidate";
      later();
    },
    [detailOpenId, d.detailTab, later, refreshLater],
  );
  const live = useLiveAccount({ reset: d, resetRows: false, onClosed });
  const liveRows = live.rows;
  const closed = live.closed;

  const rows = useMemo(
    () => (d.status === ORDER_TAB.HOLDING ? list.rows.filter((o) => !closed.has(o.id)) : list.rows),
    [list.rows, closed, d.status],
  );
  const summary: Summary = { ...d.summary, ...live.account };
  const precisionOf = (o: OrderView) => d.inst[o.forexId ?? -1]?.precision ?? 5;
  const pipOf = (o: OrderView) => d.inst[o.forexId ?? -1]?.lotStep ?? 0.01;
  const backHref = listHref(d.status, d.page);
  const detailVisible = d.detail && !(closed.has(d.detail.id) && d.detailTab === ORDER_TAB.HOLDING);
  // The dialog's stop form shows its own refusals; a refused close or cancel shows above the list.
  const stopResult =
    actionData && actionData.refusedIntent !== "close" && actionData.refusedIntent !== "cancel"
      ? (actionData.result as Parameters<typeof OrderDetail>[0]["lastResult"])
      : null;
  const stopIntent = actionData && "refusedIntent" in actionData ? actionData.refusedIntent : null;
  const actionRefusal =
    actionData && (actionData.refusedIntent === "close" || actionData.refusedIntent === "cancel")
      ? refusalMessages(actionData)
      : undefined;

  return (
    <div className="order-screen" {...pull.handlers}>
      <PageHeader
        title={t("order:title")}
        actions={
          <Link
            to={location.pathname + location.search}
            className="iconbtn"
            aria-label={t("order:refresh")}
            reloadDocument={!hydrated}
            onClick={
              hydrated
                ? (e) => {
                    e.preventDefault();
                    pull.refresh();
                  }
                : undefined
            }
          >
            ↻
          </Link>
        }
      />
      <RiskDisclosure d={d.disclosure} lang={lang} />
      {pull.spinner.visible ? (
        <div
          className="pull-spinner"
          role="status"
          aria-label={t("order:refreshing")}
          data-testid="pull-spinner"
          style={pull.spinner.height !== undefined ? { height: pull.spinner.height } : undefined}
        >
          <span className="spinner" aria-hidden="true" />
        </div>
      ) : null}
      <FormErrors errors={actionRefusal} />
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
              const l = liveRows[o.id];
              const holding = d.status === ORDER_TAB.HOLDING;
              const profit = holding && l ? l.profit : o.profit;
              const price = holding && l ? l.price : o.price;
              const buy = o.side === "buy";
              const p = precisionOf(o);
              const cancelled =
                d.status === ORDER_TAB.HISTORY && o.status === ORDER_STATUS.CANCELLED;
              return (
                <li key={o.id} className="order-row" data-testid="order-row" data-order-id={o.id}>
                  <Link
                    to={listHref(d.status, d.page, o.id)}
                    className="order-row-link"
                    preventScrollReset
                  >
                    <div className="order-row-main">
                      <span className="order-code">{o.code}</span>
                      <span className={buy ? "dir buy" : "dir sell"}>
                        {buy ? t("trade:buy") : t("trade:sell")}
                      </span>
                      <span className="order-lots">
                        {t("trade:lots_value", {
                          lots: formatLots(o.lots, pipOf(o), lang),
                          count: Number(o.lots),
                        })}
                      </span>
                      {cancelled ? <span className="badge">{t("order:cancelled")}</span> : null}
                    </div>
                    <div className="order-row-prices" data-testid="order-prices">
                      <span data-testid="order-open-price">
                        {formatPrice(
                          d.status === ORDER_TAB.PENDING
                            ? o.originPrice
                            : o.openPrice || o.originPrice,
                          p,
                          lang,
                        )}
                      </span>
                      <span className="flip-rtl" aria-hidden="true">
                        →
                      </span>
                      <span data-testid="order-price">{formatPrice(price, p, lang)}</span>
                    </div>
                    <div className="order-row-side">
                      {d.status === ORDER_TAB.PENDING ? (
                        <span className="order-time">{formatDateTime(o.createdAt, lang)}</span>
                      ) : (
                        <span className={`profit ${signOf(profit)}`} data-testid="order-profit">
                          {formatProfit(profit, lang)}
                        </span>
                      )}
                    </div>
                    {/* The link's name is its visible text (WCAG 2.5.3) followed by which order it opens. */}
                    <span className="sr-only">
                      {", "}
                      {t("order:row_label", { code: o.code, id: o.id })}
                    </span>
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
        {hydrated && list.hasMore ? (
          <div ref={list.sentinel} className="list-sentinel" data-testid="list-sentinel">
            {list.loading ? (
              <span className="spinner" role="status" aria-label={t("order:loading")} />
            ) : null}
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
            <span>
              {t("order:page_of", {
                page: d.page,
                pages: Math.max(1, Math.ceil(d.total / PAGE_SIZE)),
              })}
            </span>
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
      {d.copied.length > 0 ? (
        <section className="copied" aria-labelledby="copied-title" data-testid="copied-positions">
          <h2 id="copied-title" className="copied-title">
            {t("copy:order.title")}
          </h2>
          {d.copied.map((g) => (
            <div key={g.copyId} className="copied-group" data-testid="copied-group">
              <Link to={copyHref(g.copyId)} className="copied-provider">
                {t("copy:order.from", { name: g.provider })}
              </Link>
              <ul className="order-list">
                {g.positions.map((o) => (
                  <li key={o.id} className="order-row copied-row" data-testid="copied-row">
                    <div className="order-row-main">
                      <span className="order-code">{o.code}</span>
                      <span className={o.side === "buy" ? "dir buy" : "dir sell"}>
                        {o.side === "buy" ? t("trade:buy") : t("trade:sell")}
                      </span>
                      <span className="order-lots">
                        {t("trade:lots_value", {
                          lots: formatLots(o.lots, pipOf(o), lang),
                          count: Number(o.lots),
                        })}
                      </span>
                      <span className="badge">{g.provider}</span>
                    </div>
                    <div className="order-row-side">
                      <span className={`profit ${signOf(o.profit)}`}>
                        {formatProfit(o.profit, lang)}
                      </span>
                    </div>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </section>
      ) : null}
      {detailVisible && d.detail ? (
        <OrderDetail
          key={d.detail.id}
          order={d.detail}
          code={d.detail.code}
          precision={precisionOf(d.detail)}
          pip={pipOf(d.detail)}
          tab={d.detailTab}
          live={d.detailTab === ORDER_TAB.HOLDING ? liveRows[d.detail.id] : undefined}
          keys={d.detailKeys}
          backHref={backHref}
          lastResult={stopResult}
          lastIntent={typeof stopIntent === "string" ? stopIntent : null}
        />
      ) : null}
    </div>
  );
}
