/**
 * One copy's page (/mine/copies/N, login required): its figures and actions, the open copied
 * positions (instrument, side, lots, open price, profit, a close button each), the closed ones and
 * the provider trades it skipped with their reason. Complete server HTML without JavaScript; with
 * it the figures move with COPY_TRADE, and a change in its open positions or status loads the page
 * again.
 */
import { useMemo } from "react";
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { ORDER_TYPE } from "@contract/enums";
import type { CopyPositionFigures } from "@contract/ws";
import { PageHeader } from "~/components/PageHeader";
import { FormErrors, Hidden, refusalMessages, usePostIntent } from "~/components/Form";
import { CopyActions, CopyFigures } from "~/components/copy/CopyParts";
import { useLiveCopies } from "~/components/copy/useLiveCopies";
import { useRevalidateAfterPosts } from "~/hooks/useRefreshAfterPosts";
import type { OrderView } from "~/upstream/views";
import { formatDateTime, formatLotHint, formatPrice, formatProfit, signOf } from "~/utils/format";
import { COPIES_HREF, providerHref } from "~/utils/copy-href";
import copyStyles from "~/styles/copy.css";
import tradeStyles from "~/styles/trade.css";
import type { action, loader } from "./copy.server";

export { action, loader } from "./copy.server";

export const handle = { i18n: ["common", "copy", "trade"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: copyStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.title ?? "Tradepost" },
];

function Side({ side }: { side: "buy" | "sell" | number }) {
  const { t } = useTranslation("trade");
  const buy = side === "buy" || side === ORDER_TYPE.BUY;
  return <span className={buy ? "dir buy" : "dir sell"}>{buy ? t("buy") : t("sell")}</span>;
}

function PositionRow({
  o: stored,
  live,
  precision,
  lang,
  closeKey,
  copyId,
}: {
  o: OrderView;
  /** An open position's price and profit from the latest COPY_TRADE push. */
  live?: CopyPositionFigures;
  precision: number;
  lang: string;
  closeKey?: string;
  copyId: number;
}) {
  const { t } = useTranslation(["copy", "trade"]);
  const o = live ? { ...stored, price: live.price, profit: live.profit } : stored;
  const { busyIntent } = usePostIntent();
  return (
    <li className="copy-position" data-testid="copy-position" data-code={o.code}>
      <div className="copy-position-main">
        <span className="order-code">{o.code}</span>
        <Side side={o.side} />
        <span>{t("trade:lots_value", { lots: formatLotHint(o.lots, lang), count: o.lots })}</span>
        <span className={`profit ${signOf(o.profit)}`} data-testid="copy-position-profit">
          {formatProfit(o.profit, lang)}
        </span>
      </div>
      <div className="copy-position-sub muted">
        <span>
          {t("copy:copy.open_price")} {formatPrice(o.openPrice, precision, lang)}
        </span>
        {closeKey ? null : (
          <span>
            {t("copy:copy.close_price")} {formatPrice(o.price, precision, lang)}
          </span>
        )}
        {closeKey ? (
          <Form method="post" className="inline-form" preventScrollReset>
            <AuthenticityTokenInput />
            <Hidden name="intent" value="close" />
            <Hidden name="id" value={copyId} />
            <Hidden name="position_id" value={o.id} />
            <Hidden name="idempotency_key" value={closeKey} />
            <button
              type="submit"
              className="btn btn-small"
              disabled={busyIntent === "close"}
              aria-label={t("copy:copy.close_label", { code: o.code, id: o.id })}
              data-testid="copy-position-close"
            >
              {t("copy:copy.close")}
            </button>
          </Form>
        ) : null}
      </div>
    </li>
  );
}

export default function CopyPage() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation(["copy", "trade"]);
  // A copy's change while the page's own form posts waits for the post's redirect (see the hook).
  const revalidate = useRevalidateAfterPosts();
  const base = d.copy;
  const initial = useMemo(() => (base ? [base] : []), [base]);
  const live = useLiveCopies(initial, revalidate);
  if (!base)
    return (
      <div className="copies">
        <PageHeader title={d.title} back={COPIES_HREF} />
        <p className="card notice" role="status" data-testid="copy-notice">
          {d.notice}
        </p>
      </div>
    );
  const c = live[base.id] ?? base;
  const closeRefused =
    actionData && "refusedIntent" in actionData && actionData.refusedIntent === "close"
      ? refusalMessages(actionData)
      : undefined;
  const precisionOf = (o: OrderView) => d.precision[String(o.forexId ?? -1)] ?? 5;
  return (
    <div className="copies copy-page" data-testid="copy-page" data-copy-id={c.id}>
      <PageHeader title={d.title} back={COPIES_HREF} />
      <section className="card copy-item">
        <div className="copy-head">
          <Link to={providerHref(c.provider_id)} className="copy-provider-link">
            {t("copy:copies.provider_page")}
          </Link>
          <span className="muted">
            {t("copy:copy.started_at", { at: formatDateTime(c.created_at, d.lang) })}
          </span>
        </div>
        <CopyFigures c={c} lang={d.lang} />
        <CopyActions c={c} keys={d.keys} lang={d.lang} actionData={actionData} />
      </section>
      <section className="card" aria-labelledby="copy-open">
        <h2 id="copy-open">{t("copy:copy.positions")}</h2>
        <FormErrors errors={closeRefused} />
        {d.positions.length === 0 ? (
          <p className="muted" data-testid="copy-positions-empty">
            {t("copy:copy.no_positions")}
          </p>
        ) : (
          <ul className="copy-positions" data-testid="copy-positions" role="list">
            {d.positions.map((o) => (
              <PositionRow
                key={o.id}
                o={o}
                live={c.livePositions?.[o.id]}
                precision={precisionOf(o)}
                lang={d.lang}
                closeKey={d.closeKeys[o.id]}
                copyId={c.id}
              />
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="copy-closed">
        <h2 id="copy-closed">{t("copy:copy.closed")}</h2>
        {d.closed.length === 0 ? (
          <p className="muted">{t("copy:copy.no_closed")}</p>
        ) : (
          <ul className="copy-positions" data-testid="copy-closed" role="list">
            {d.closed.map((o) => (
              <PositionRow
                key={o.id}
                o={o}
                precision={precisionOf(o)}
                lang={d.lang}
                copyId={c.id}
              />
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="copy-skipped">
        <h2 id="copy-skipped">{t("copy:copy.skipped")}</h2>
        {base.skipped.length === 0 ? (
          <p className="muted">{t("copy:copy.no_skipped")}</p>
        ) : (
          <ul className="copy-positions" data-testid="copy-skipped" role="list">
            {base.skipped.map((s) => (
              <li key={s.provider_order_id} className="copy-position" data-testid="skipped-row">
                <div className="copy-position-main">
                  <span className="order-code">{s.code}</span>
                  <Side side={s.side} />
                  <span>
                    {t("trade:lots_value", {
                      lots: formatLotHint(s.lots, d.lang),
                      count: Number(s.lots),
                    })}
                  </span>
                </div>
                <div className="copy-position-sub">
                  <span className="copy-reason">{s.reason}</span>
                  <time className="muted">{formatDateTime(s.created_at, d.lang)}</time>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
