/**
 * Wallet (login required; product-spec.md section 2): the account's withdrawal destinations, coin
 * addresses and bank accounts, each with a delete form, and the forms that add one. Plain POST
 * forms: the same with and without JavaScript. Demo accounts see the real-account message.
 */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "~/components/PageHeader";
import { FormErrors, Hidden, refusalMessages } from "~/components/Form";
import type { action, loader } from "./wallet.server";

export { action, loader } from "./wallet.server";

export const handle = { i18n: ["common", "auth", "wallet"] };

export default function Wallet() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("wallet");
  const refusedIntent =
    actionData && typeof actionData === "object" && "refusedIntent" in actionData
      ? actionData.refusedIntent
      : null;
  const errorsFor = (intent: string) =>
    refusedIntent === intent ? refusalMessages(actionData) : undefined;

  if (d.notice)
    return (
      <div className="wallet">
        <PageHeader title={t("title")} back="/user" />
        <p className="card notice" role="status" data-testid="wallet-notice">
          {d.notice}
        </p>
      </div>
    );

  return (
    <div className="wallet">
      <PageHeader title={t("title")} back="/user" />
      <FormErrors errors={errorsFor("delete")} />

      <section className="card" aria-labelledby="wallet-addresses">
        <h2 id="wallet-addresses">{t("addresses")}</h2>
        {d.addresses.length === 0 ? (
          <p className="empty">{t("no_addresses")}</p>
        ) : (
          <ul className="ledger" role="list" data-testid="wallet-addresses">
            {d.addresses.map((m) => (
              <li key={m.id} className="ledger-row" data-testid="wallet-address">
                <div className="ledger-main">
                  <span>
                    {m.draw_currency.code} ({m.draw_currency.protocol})
                  </span>
                  <DeleteButton id={m.id} label={t("delete")} />
                </div>
                <div className="ledger-sub">
                  <span className="mono">{m.dc_address}</span>
                </div>
              </li>
            ))}
          </ul>
        )}
        <Form method="post" className="form" data-testid="bind-address">
          <AuthenticityTokenInput />
          <Hidden name="intent" value="bind_address" />
          <FormErrors errors={errorsFor("bind_address")} />
          <label className="field">
            <span>{t("network")}</span>
            <select name="draw_id" required>
              {d.coins.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.code} ({c.protocol})
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>{t("address")}</span>
            <input
              name="dc_address"
              required
              maxLength={128}
              autoComplete="off"
              spellCheck={false}
            />
          </label>
          <button type="submit" className="btn btn-primary btn-block">
            {t("add_address")}
          </button>
        </Form>
      </section>

      <section className="card" aria-labelledby="wallet-banks">
        <h2 id="wallet-banks">{t("banks")}</h2>
        {d.banks.length === 0 ? (
          <p className="empty">{t("no_banks")}</p>
        ) : (
          <ul className="ledger" role="list" data-testid="wallet-banks">
            {d.banks.map((m) => (
              <li key={m.id} className="ledger-row" data-testid="wallet-bank">
                <div className="ledger-main">
                  <span>{m.bank_name}</span>
                  <DeleteButton id={m.id} label={t("delete")} />
                </div>
                <div className="ledger-sub">
                  <span>{m.payee_name}</span>
                  <span className="mono">{m.payee_account}</span>
                </div>
              </li>
            ))}
          </ul>
        )}
        <Form method="post" className="form" data-testid="bind-bank">
          <AuthenticityTokenInput />
          <Hidden name="intent" value="bind_bank" />
          <FormErrors errors={errorsFor("bind_bank")} />
          <label className="field">
            <span>{t("currency")}</span>
            <select name="draw_id" required>
              {d.bankCurrencies.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.code}
                </option>
              ))}
            </select>
          </label>
          {(
            [
              ["bank_name", 120],
              ["bank_address", 200],
              ["bank_swift", 11],
              ["payee_name", 120],
              ["payee_account", 64],
            ] as const
          ).map(([name, max]) => (
            <label className="field" key={name}>
              <span>{t(name)}</span>
              <input name={name} required maxLength={max} autoComplete="off" />
            </label>
          ))}
          <label className="field">
            <span>{t("remark")}</span>
            <input name="remark" maxLength={200} autoComplete="off" />
          </label>
          <button type="submit" className="btn btn-primary btn-block">
            {t("add_bank")}
          </button>
        </Form>
      </section>
    </div>
  );
}

function DeleteButton({ id, label }: { id: number; label: string }) {
  return (
    <Form method="post" className="inline-form">
      <AuthenticityTokenInput />
      <Hidden name="intent" value="delete" />
      <Hidden name="id" value={id} />
      <button type="submit" className="btn btn-small">
        {label}
      </button>
    </Form>
  );
}
