/**
 * Withdraw (login required; product-spec.md sections 2, 7 and 9): the kind (coin address or bank
 * account) and currency as links, the amount in USD with the free margin and balance, the
 * destination among the saved ones of that currency, the expected arrival, and the records with a
 * cancel form for one under review.
 *
 * The expected arrival is contract/withdraw-net.ts's figure: rendered by the server (the
 * "calculate" submit shows it without JavaScript before confirming) and recomputed in the browser
 * as the amount changes. With no destination for the currency (`wallet.not_bind`) a native
 * <dialog> leads to binding one: modal with JavaScript, an open section of the page without.
 * Demo accounts see the real-account message instead of the forms.
 */
import { useEffect, useRef, useState } from "react";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { Isolated } from "~/components/Isolated";
import type { DrawCurrency, DrawMethod, DrawRecord } from "@contract/api/finance";
import { DRAW_FEE_TYPE, DRAW_TYPE, WITHDRAW_STATUS } from "@contract/enums";
import { IDEMPOTENCY_FIELD } from "@contract/constants";
import { withdrawNetText } from "@contract/withdraw-net";
import { PageHeader } from "~/components/PageHeader";
import { FormErrors, Hidden } from "~/components/Form";
import { SecurityCodeField, useRefusal } from "~/components/Wallet";
import { formatBalance, formatPercent, EMPTY } from "~/utils/format";
import { bindPath, withdrawPath, type DrawType } from "~/utils/wallet-paths";
import { plainAmount } from "~/schemas/withdraw";
import { useAppendingPages } from "~/utils/use-appending-pages";
import type { action, loader } from "./withdraw.server";

export { action, loader } from "./withdraw.server";

export const handle = { i18n: ["common", "auth", "wallet", "withdraw", "history", "security"] };

export default function Withdraw() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const errorsFor = useRefusal(actionData);
  const { t } = useTranslation("withdraw");
  const type = d.type as DrawType;

  return (
    <div className="withdraw">
      <PageHeader title={t("title")} back="/user" />
      {d.notice !== null ? (
        <p className="card notice" role="status" data-testid="withdraw-notice">
          {d.notice}
        </p>
      ) : (
        <>
          <nav className="segmented" aria-label={t("kind")}>
            {[DRAW_TYPE.ADDRESS, DRAW_TYPE.BANK].map((k) => (
              <Link
                key={k}
                to={withdrawPath(k)}
                replace
                className={k === type ? "seg active" : "seg"}
                aria-current={k === type ? "page" : undefined}
              >
                {t(k === DRAW_TYPE.BANK ? "kind_bank" : "kind_address")}
              </Link>
            ))}
          </nav>
          {!d.currency ? (
            <p className="card notice" role="status" data-testid="withdraw-no-channel">
              {t("no_channel")}
            </p>
          ) : (
            <>
              <nav className="chips" aria-label={t("currency")} data-testid="withdraw-currencies">
                {d.currencies.map((c) => {
                  const active = c.id === d.currency?.id;
                  return (
                    <Link
                      key={c.id}
                      to={withdrawPath(type, c.id)}
                      replace
                      className={active ? "chip active" : "chip"}
                      aria-current={active ? "true" : undefined}
                    >
                      {currencyLabel(c)}
                    </Link>
                  );
                })}
              </nav>
              <FormErrors errors={errorsFor("cancel")} />
              <WithdrawForm
                key={d.currency.id}
                type={type}
                currency={d.currency}
                methods={d.methods}
                balance={d.balance}
                canUse={d.canUse}
                lang={d.lang}
                idemKey={d.key}
                twoFactor={d.twoFactor}
                errors={errorsFor("draw") ?? errorsFor("calculate")}
                posted={postedValues(actionData)}
                serverArrival={
                  actionData && "arrival" in actionData ? (actionData.arrival ?? null) : null
                }
              />
              {d.methods.length === 0 ? (
                <NotBound href={bindPath(type, d.currency.id, "withdraw")} />
              ) : null}
            </>
          )}
          <Records
            records={d.records}
            page={d.recordsPage}
            pages={d.recordsPages}
            lang={d.lang}
            idemKey={d.key}
            action={withdrawPath(type, d.currency?.id)}
          />
        </>
      )}
    </div>
  );
}

function currencyLabel(c: { code: string; protocol: string }): string {
  return c.protocol ? `${c.code} (${c.protocol})` : c.code;
}

/** The values of a refused or calculated form, to show it again as it was posted. */
function postedValues(actionData: unknown): Record<string, string> {
  if (!actionData || typeof actionData !== "object" || !("result" in actionData)) return {};
  const initial = (actionData as { result?: { initialValue?: Record<string, unknown> | null } })
    .result?.initialValue;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(initial ?? {})) if (typeof v === "string") out[k] = v;
  return out;
}

function WithdrawForm(p: {
  type: DrawType;
  currency: DrawCurrency;
  methods: DrawMethod[];
  balance: number;
  canUse: number;
  lang: string;
  idemKey: string;
  /** Two-factor sign-in is on: the withdrawal needs a code. */
  twoFactor: boolean;
  errors?: string[];
  posted: Record<string, string>;
  serverArrival: { amount: string; net: string | null } | null;
}) {
  const { t } = useTranslation("withdraw");
  const c = p.currency;
  const [amount, setAmount] = useState(p.serverArrival?.amount ?? p.posted.number ?? "");
  // The figure the server rendered until the browser can compute it itself.
  const [live, setLive] = useState(false);
  useEffect(() => setLive(true), []);
  const net = live
    ? withdrawNetText(plainAmount(amount), c.fee_type, c.draw_rate, c.usd_price)
    : (p.serverArrival?.net ?? null);
  const here = withdrawPath(p.type, c.id);
  const fee =
    c.fee_type === DRAW_FEE_TYPE.FIXED
      ? t("fee_fixed", { fee: formatBalance(c.draw_rate, p.lang) })
      : t("fee_rate", { rate: formatPercent(c.draw_rate * 100, p.lang) });

  return (
    <Form method="post" action={here} className="card form" data-testid="withdraw-form">
      <AuthenticityTokenInput />
      <Hidden name="draw_currency_id" value={c.id} />
      <Hidden name={IDEMPOTENCY_FIELD} value={p.idemKey} />
      <FormErrors errors={p.errors} />
      <fieldset className="field destinations">
        <legend>{t("destination")}</legend>
        {p.methods.length === 0 ? (
          <p className="empty">{t("no_destination")}</p>
        ) : (
          p.methods.map((m) => (
            <label key={m.id} className="radio-row" data-testid="withdraw-destination">
              <input
                type="radio"
                name="draw_method_id"
                value={m.id}
                defaultChecked={p.posted.draw_method_id === String(m.id)}
              />
              <span className="mono">
                {m.dc_address ?? `${m.bank_name ?? ""} ${m.payee_account ?? ""}`.trim()}
              </span>
            </label>
          ))
        )}
        <Link to={bindPath(p.type, c.id, "withdraw")} className="btn btn-small">
          {t(p.type === DRAW_TYPE.BANK ? "add_bank" : "add_address")}
        </Link>
      </fieldset>
      <label className="field">
        <span>{t("amount")}</span>
        <input
          name="number"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          aria-describedby="withdraw-available"
        />
      </label>
      <p id="withdraw-available" className="muted" data-testid="withdraw-available">
        {t("available", {
          can_use: formatBalance(p.canUse, p.lang),
          balance: formatBalance(p.balance, p.lang),
        })}
      </p>
      <p className="arrival">
        <span>{t("arrival")}</span>{" "}
        <output aria-live="polite" data-testid="withdraw-arrival">
          {net === null ? EMPTY : `${net} ${c.code}`}
        </output>
      </p>
      <p className="muted" data-testid="withdraw-fee">
        {fee}
      </p>
      <label className="field">
        <span>{t("memo")}</span>
        <input name="memo" maxLength={200} autoComplete="off" defaultValue={p.posted.memo} />
      </label>
      <SecurityCodeField on={p.twoFactor} />
      <div className="modal-actions">
        <button type="submit" name="intent" value="calculate" className="btn">
          {t("calculate")}
        </button>
        <button type="submit" name="intent" value="draw" className="btn btn-primary">
          {t("submit")}
        </button>
      </div>
    </Form>
  );
}

/**
 * No destination for the currency: a <dialog> that leads to binding one. The server renders it
 * open (a section of the page without JavaScript); the browser makes it modal.
 */
function NotBound({ href }: { href: string }) {
  const { t } = useTranslation("withdraw");
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog || typeof dialog.showModal !== "function" || dialog.matches(":modal")) return;
    dialog.close();
    dialog.showModal();
  }, [href]);
  return (
    <dialog
      open
      ref={ref}
      className="card not-bind"
      aria-labelledby="not-bind-title"
      data-testid="not-bind"
    >
      <h2 id="not-bind-title">{t("not_bind_title")}</h2>
      <p>{t("not_bind")}</p>
      <div className="modal-actions">
        <Link to={href} className="btn btn-primary">
          {t("bind_now")}
        </Link>
        <form method="dialog" className="inline-form">
          <button type="submit" className="btn">
            {t("later")}
          </button>
        </form>
      </div>
    </dialog>
  );
}

/**
 * The withdrawals of this kind, newest first, a page at a time: links page them without
 * JavaScript; with it the list scrolls on (the next page appended when its end comes into view).
 */
function Records(p: {
  records: DrawRecord[];
  page: number;
  pages: number;
  lang: string;
  idemKey: string;
  action: string;
}) {
  const { t } = useTranslation(["withdraw", "history"]);
  const pageHref = (n: number) => `${p.action}&page=${n}`;
  const { rows, last, sentinel, busy } = useAppendingPages<DrawRecord, WithdrawData>(
    { rows: p.records, page: p.page, pages: p.pages },
    pageHref,
    (next) =>
      "records" in next && next.records && "recordsPage" in next
        ? { rows: next.records, page: next.recordsPage }
        : null,
  );
  return (
    <section className="card" aria-labelledby="withdraw-records">
      <h2 id="withdraw-records">{t("records")}</h2>
      {rows.length === 0 ? (
        <p className="empty">{t("no_records")}</p>
      ) : (
        <ul className="ledger" role="list" data-testid="withdraw-records" aria-busy={busy}>
          {rows.map((r) => (
            <li
              key={r.id}
              className="ledger-row"
              data-testid="withdraw-record"
              data-draw-id={r.id}
              data-status={r.status}
            >
              <div className="ledger-main">
                <span className="ledger-value ledger-formula">
                  <Isolated
                    t={t}
                    k="record_amount"
                    values={{
                      amount: formatBalance(r.number, p.lang),
                      net: r.real_number,
                      code: r.draw_currency.code,
                    }}
                  />
                </span>
                <span className="status">{r.status_name}</span>
              </div>
              <div className="ledger-sub">
                <time className="muted">{r.created_at}</time>
                <span className="mono">{r.address ?? r.payee_account ?? EMPTY}</span>
              </div>
              <div className="ledger-sub">
                <span className="muted">
                  {t("record_fee", { fee: formatBalance(r.fee, p.lang) })}
                </span>
                {r.status === WITHDRAW_STATUS.REVIEWING ? (
                  <Form method="post" action={p.action} className="inline-form">
                    <AuthenticityTokenInput />
                    <Hidden name="intent" value="cancel" />
                    <Hidden name="id" value={r.id} />
                    <Hidden name={IDEMPOTENCY_FIELD} value={`${p.idemKey}-cancel-${r.id}`} />
                    <button type="submit" className="btn btn-small">
                      {t("cancel")}
                    </button>
                  </Form>
                ) : null}
              </div>
              {r.status === WITHDRAW_STATUS.REJECTED && r.remark ? (
                <p className="ledger-sub muted" data-testid="withdraw-remark">
                  {t("remark", { remark: r.remark })}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      <div ref={sentinel} className="history-sentinel" data-testid="records-sentinel" />
      {p.pages > 1 ? (
        <nav className="pager" aria-label={t("history:pages")}>
          {p.page > 1 ? (
            <Link to={pageHref(p.page - 1)} rel="prev" className="btn">
              {t("history:newer")}
            </Link>
          ) : (
            <span />
          )}
          <span className="muted" data-testid="records-page">
            {p.page === last
              ? t("history:page_of", { page: last, pages: p.pages })
              : t("history:pages_of", { from: p.page, to: last, pages: p.pages })}
          </span>
          {last < p.pages ? (
            <Link to={pageHref(last + 1)} rel="next" className="btn">
              {t("history:older")}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </section>
  );
}

type WithdrawData = Awaited<ReturnType<typeof useLoaderData<typeof loader>>>;
