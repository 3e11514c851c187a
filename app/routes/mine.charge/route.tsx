/**
 * Deposit (login required; product-spec.md section 2): tabs coin (?type=0) and bank (?type=1).
 * Coin: the network (links ?type=0&charge_id=N), its address (selectable text, a copy button with
 * JavaScript) and QR code (server-rendered SVG), the amount and the coins it makes. Bank: the wire
 * account (links ?type=1&wire_id=N) and its details. Both: one proof image and submit, as a real
 * multipart form that works without JavaScript; with it, a preview of the chosen image and the
 * upload's progress (the same form posted by XMLHttpRequest to /mine/charge/upload). Under the
 * form, the account's deposits of the tab's type, paged by links. Demo accounts see the
 * real-account message instead.
 */
import { Link, useActionData, useLoaderData, useNavigate } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { Isolated } from "~/components/Isolated";
import { useState, type FormEvent } from "react";
import { CHANNEL_TYPE, CHARGE_STATUS } from "@contract/enums";
import { IDEMPOTENCY_FIELD } from "@contract/constants";
import { PageHeader } from "~/components/PageHeader";
import { FormErrors, Hidden, refusalMessages } from "~/components/Form";
import { useHydrated } from "~/components/trade/hooks";
import { useFilePreview } from "~/components/use-file-preview";
import { formatBalance } from "~/utils/format";
import { coinCount } from "~/utils/charge";
import type { action, loader } from "./charge.server";

export { action, loader } from "./charge.server";

export const handle = { i18n: ["common", "auth", "charge"] };

/** Where the JavaScript enhancement posts the form (the same flow, answered as JSON). */
const XHR_ACTION = "/mine/charge/upload";

type Data = ReturnType<typeof useLoaderData<typeof loader>>;

export default function Charge() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("charge");
  const tabs = [
    { type: CHANNEL_TYPE.COIN, label: t("tab_coin") },
    { type: CHANNEL_TYPE.BANK, label: t("tab_bank") },
  ];
  return (
    <div className="charge">
      <PageHeader title={t("title")} back="/user" />
      <nav className="segmented" aria-label={t("tabs")}>
        {tabs.map((tab) => (
          <Link
            key={tab.type}
            to={`?type=${tab.type}`}
            className={tab.type === d.type ? "seg active" : "seg"}
            aria-current={tab.type === d.type ? "page" : undefined}
            data-testid={`charge-tab-${tab.type}`}
          >
            {tab.label}
          </Link>
        ))}
      </nav>
      {d.notice ? (
        <p className="card notice" role="status" data-testid="charge-notice">
          {d.notice}
        </p>
      ) : (
        <>
          {d.type === CHANNEL_TYPE.COIN ? <CoinTab d={d} /> : <BankTab d={d} />}
          <Records d={d} />
        </>
      )}
    </div>
  );
}

function CoinTab({ d }: { d: Data }) {
  const { t } = useTranslation("charge");
  const c = d.channel;
  if (!c)
    return (
      <p className="card empty" data-testid="charge-no-channel">
        {t("no_pay_way")}
      </p>
    );
  return (
    <section className="card charge-card" aria-labelledby="charge-network">
      <h2 id="charge-network">{t("network")}</h2>
      <ul className="chips charge-choices" role="list">
        {d.channels.map((ch) => (
          <li key={ch.id}>
            <Link
              to={`?type=${CHANNEL_TYPE.COIN}&charge_id=${ch.id}`}
              className={ch.id === c.id ? "chip active" : "chip"}
              aria-current={ch.id === c.id ? "true" : undefined}
              data-testid="charge-channel"
            >
              {ch.currency_code} ({ch.protocol_code})
            </Link>
          </li>
        ))}
      </ul>
      <div className="charge-address">
        <h3 id="charge-address-label">{t("address", { currency: c.currency_code })}</h3>
        <div className="charge-address-row">
          <code className="mono selectable" data-testid="charge-address">
            {c.address}
          </code>
          <CopyButton text={c.address} />
        </div>
        {d.qr ? (
          <div
            className="charge-qr"
            role="img"
            aria-label={t("qr", { currency: c.currency_code, protocol: c.protocol_code })}
            data-testid="charge-qr"
            // The server's own SVG (qrcode): presentation attributes only, no script or style.
            dangerouslySetInnerHTML={{ __html: d.qr }}
          />
        ) : null}
        <p className="muted" data-testid="charge-price">
          <Isolated
            t={t}
            k="price"
            values={{ currency: c.currency_code, price: formatBalance(c.usd_price, d.lang) }}
          />
        </p>
      </div>
      <ChargeForm key={d.idempotencyKey} d={d} intent="coin" usdPrice={c.usd_price}>
        <Hidden name="charge_id" value={c.id} />
        <Hidden name="address" value={c.address} />
      </ChargeForm>
    </section>
  );
}

function BankTab({ d }: { d: Data }) {
  const { t } = useTranslation("charge");
  const w = d.wire;
  if (!w)
    return (
      <p className="card empty" role="status" data-testid="charge-no-wire">
        {t("no_pay_way")}
      </p>
    );
  const details: [string, string][] = [
    [t("bank_name"), w.bank_name],
    [t("bank_address"), w.bank_address],
    [t("bank_swift"), w.bank_swift],
    [t("payee_name"), w.payee_name],
    [t("payee_account"), w.payee_account],
    [t("bank_remark"), w.bank_remark],
  ];
  return (
    <section className="card charge-card" aria-labelledby="charge-wire">
      <h2 id="charge-wire">{t("wire_account")}</h2>
      <ul className="chips charge-choices" role="list">
        {d.wires.map((x) => (
          <li key={x.id}>
            <Link
              to={`?type=${CHANNEL_TYPE.BANK}&wire_id=${x.id}`}
              className={x.id === w.id ? "chip active" : "chip"}
              aria-current={x.id === w.id ? "true" : undefined}
              data-testid="charge-wire"
            >
              {x.bank_coin} · {x.bank_name}
            </Link>
          </li>
        ))}
      </ul>
      <dl className="charge-details" data-testid="charge-wire-details">
        {details
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd className="selectable">{v}</dd>
            </div>
          ))}
      </dl>
      <ChargeForm key={d.idempotencyKey} d={d} intent="bank" usdPrice={null}>
        <Hidden name="wire_id" value={w.id} />
      </ChargeForm>
    </section>
  );
}

/** The copy button of an address: only with JavaScript (without it the text is selectable). */
function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation("charge");
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className="btn btn-small"
      data-testid="charge-copy"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(
          () => setCopied(true),
          () => setCopied(false),
        );
      }}
    >
      <span aria-live="polite">{copied ? t("copied") : t("copy")}</span>
    </button>
  );
}

type Refusal = { refusedIntent?: string; result?: unknown; coins?: string | null };

/** The posted amount of a refused form (conform's initialValue), to show it again. */
function postedAmount(r: Refusal | undefined): string {
  const v = (r?.result as { initialValue?: Record<string, unknown> } | undefined)?.initialValue;
  return typeof v?.number === "string" ? v.number : "";
}

function ChargeForm({
  d,
  intent,
  usdPrice,
  children,
}: {
  d: Data;
  intent: "coin" | "bank";
  usdPrice: number | null;
  children: React.ReactNode;
}) {
  const { t } = useTranslation("charge");
  const navigate = useNavigate();
  const actionData = useActionData<typeof action>() as Refusal | undefined;
  const [xhrData, setXhrData] = useState<Refusal | undefined>(undefined);
  const refusal = xhrData ?? actionData;
  // A refusal before the form's intent was read (a body too large) belongs to the one form shown.
  const mine =
    refusal && (refusal.refusedIntent === intent || !refusal.refusedIntent) ? refusal : undefined;
  const [amount, setAmount] = useState(() => postedAmount(mine));
  const { preview, inputRef: proofRef, onFiles: onFile } = useFilePreview();
  const [progress, setProgress] = useState<number | null>(null);

  const coins = usdPrice === null ? null : coinCount(amount, usdPrice);
  const currency = d.channel?.currency_code ?? "";

  function onSubmit(e: FormEvent<HTMLFormElement>) {
    if (typeof XMLHttpRequest === "undefined") return;
    e.preventDefault();
    const form = e.currentTarget;
    const xhr = new XMLHttpRequest();
    // Anything but this route's JSON answer: post the form the plain way instead.
    const fallback = () => {
      setProgress(null);
      form.submit();
    };
    xhr.open("POST", XHR_ACTION);
    xhr.responseType = "json";
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (ev) => {
      if (ev.lengthComputable) setProgress(Math.round((ev.loaded / ev.total) * 100));
    };
    xhr.onerror = fallback;
    xhr.onload = () => {
      const body = xhr.response as (Refusal & { location?: string }) | null;
      if (!body || typeof body !== "object") return fallback();
      setProgress(null);
      if (xhr.status < 300 && typeof body.location === "string") {
        navigate(body.location, { replace: true });
        return;
      }
      if (!body.refusedIntent && !body.result) return fallback();
      setXhrData(body);
    };
    setXhrData(undefined);
    setProgress(0);
    xhr.send(new FormData(form));
  }

  return (
    <form
      method="post"
      encType="multipart/form-data"
      className="form charge-form"
      data-testid={`charge-form-${intent}`}
      onSubmit={onSubmit}
    >
      <AuthenticityTokenInput />
      <Hidden name="intent" value={intent} />
      <Hidden name={IDEMPOTENCY_FIELD} value={d.idempotencyKey} />
      {children}
      <FormErrors errors={refusalMessages(mine)} />
      <div className="field">
        <label htmlFor={`charge-amount-${intent}`}>{t("amount")}</label>
        <input
          id={`charge-amount-${intent}`}
          name="number"
          inputMode="decimal"
          autoComplete="off"
          required
          value={amount}
          onChange={(e) => setAmount(e.target.value)}
          aria-describedby={`charge-bounds-${intent}`}
        />
        <p className="hint muted" id={`charge-bounds-${intent}`}>
          {d.min > 0
            ? t("bounds", { min: formatBalance(d.min, d.lang), max: formatBalance(d.max, d.lang) })
            : t("amount_hint")}
        </p>
      </div>
      {usdPrice !== null ? (
        <p className="charge-coins">
          {t("coins")}:{" "}
          <output data-testid="charge-coins" htmlFor={`charge-amount-${intent}`}>
            {coins ?? mine?.coins ?? "—"}
          </output>{" "}
          {currency}
        </p>
      ) : null}
      <div className="field">
        <label htmlFor={`charge-proof-${intent}`}>{t("proof")}</label>
        <input
          id={`charge-proof-${intent}`}
          type="file"
          name="proof"
          accept="image/png,image/jpeg,image/webp"
          required
          ref={proofRef}
          onChange={(e) => onFile(e.target.files)}
        />
        <p className="hint muted">{t("proof_hint")}</p>
      </div>
      {preview ? (
        <img
          className="charge-preview"
          src={preview}
          alt={t("preview")}
          data-testid="charge-preview"
        />
      ) : null}
      {progress !== null ? (
        <progress
          className="charge-progress"
          max={100}
          value={progress}
          aria-label={t("uploading")}
          data-testid="charge-progress"
        />
      ) : null}
      <button type="submit" className="btn btn-primary btn-block" disabled={progress !== null}>
        {t("submit")}
      </button>
    </form>
  );
}

function Records({ d }: { d: Data }) {
  const { t } = useTranslation("charge");
  const href = (page: number) => `?type=${d.type}&page=${page}`;
  const refused = new Set<number>([CHARGE_STATUS.REJECTED, CHARGE_STATUS.INVALID]);
  return (
    <section className="card" aria-labelledby="charge-records">
      <h2 id="charge-records" className="charge-records-title">
        {t("records")}
      </h2>
      {d.records.length === 0 ? (
        <p className="empty" data-testid="charge-empty">
          {t("no_records")}
        </p>
      ) : (
        <ul className="ledger" role="list" data-testid="charge-records">
          {d.records.map((r) => (
            <li
              key={r.id}
              className="ledger-row"
              data-testid="charge-row"
              data-charge-id={r.id}
              data-status={r.status}
            >
              <div className="ledger-main">
                <span>
                  {formatBalance(r.number, d.lang)} USD · {r.currency}
                </span>
                <span className={`charge-status s${r.status}`} data-testid="charge-status">
                  {r.statusName}
                </span>
              </div>
              <div className="ledger-sub">
                <time className="muted">{r.at}</time>
                {r.credited !== null && r.status === CHARGE_STATUS.FINISHED ? (
                  <span className="muted">
                    {t("credited", { amount: formatBalance(r.credited, d.lang) })}
                  </span>
                ) : null}
              </div>
              {refused.has(r.status) && r.remark ? (
                <p className="charge-remark" data-testid="charge-remark">
                  {t("remark", { remark: r.remark })}
                </p>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {d.pages > 1 ? (
        <nav className="pager" aria-label={t("pages")}>
          {d.page > 1 ? (
            <Link to={href(d.page - 1)} rel="prev" className="btn">
              {t("newer")}
            </Link>
          ) : (
            <span />
          )}
          <span className="muted">{t("page_of", { page: d.page, pages: d.pages })}</span>
          {d.page < d.pages ? (
            <Link to={href(d.page + 1)} rel="next" className="btn">
              {t("older")}
            </Link>
          ) : (
            <span />
          )}
        </nav>
      ) : null}
    </section>
  );
}
