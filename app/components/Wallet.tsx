/**
 * The wallet's pieces, shared by /mine/wallet, /mine/coin-address-list, /mine/bank-card-list and
 * /mine/withdraw-way: the lists of destinations with their delete forms, and the forms that add a
 * coin address or a bank account. Plain POST forms: the same with and without JavaScript.
 */
import { Form } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import type { DrawCurrency, DrawMethod } from "@contract/api/finance";
import { FormErrors, Hidden, refusalMessages } from "~/components/Form";

/** The messages of the refused form with this intent (an action's answer), else nothing. */
export function useRefusal(actionData: unknown) {
  const refusedIntent =
    actionData && typeof actionData === "object" && "refusedIntent" in actionData
      ? actionData.refusedIntent
      : null;
  return (intent: string) => (refusedIntent === intent ? refusalMessages(actionData) : undefined);
}

/** The upstream's reason for refusing the wallet (a demo account), in place of the screen. */
export function WalletNotice({ text }: { text: string }) {
  return (
    <p className="card notice" role="status" data-testid="wallet-notice">
      {text}
    </p>
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

export function AddressList({ addresses }: { addresses: DrawMethod[] }) {
  const { t } = useTranslation("wallet");
  if (addresses.length === 0) return <p className="empty">{t("no_addresses")}</p>;
  return (
    <ul className="ledger" role="list" data-testid="wallet-addresses">
      {addresses.map((m) => (
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
  );
}

export function BankList({ banks }: { banks: DrawMethod[] }) {
  const { t } = useTranslation("wallet");
  if (banks.length === 0) return <p className="empty">{t("no_banks")}</p>;
  return (
    <ul className="ledger" role="list" data-testid="wallet-banks">
      {banks.map((m) => (
        <li key={m.id} className="ledger-row" data-testid="wallet-bank">
          <div className="ledger-main">
            <span>
              {m.bank_name} ({m.draw_currency.code})
            </span>
            <DeleteButton id={m.id} label={t("delete")} />
          </div>
          <div className="ledger-sub">
            <span>{m.payee_name}</span>
            <span className="mono">{m.payee_account}</span>
          </div>
        </li>
      ))}
    </ul>
  );
}

interface BindFormProps {
  currencies: DrawCurrency[];
  errors?: string[];
  /** The currency chosen first (the one the withdrawal screen asked for). */
  drawId?: number | null;
  /** "withdraw": return to the withdrawal screen after adding. */
  back?: string | null;
  /** Two-factor sign-in is on: the form asks for a code. */
  twoFactor?: boolean;
}

/** The second factor's code a new destination or a withdrawal needs while two-factor is on. */
export function SecurityCodeField({ on }: { on: boolean | undefined }) {
  const { t } = useTranslation("security");
  if (!on) return null;
  return (
    <label className="field">
      <span>{t("code_label")}</span>
      <input
        name="totp_code"
        required
        maxLength={12}
        autoComplete="one-time-code"
        spellCheck={false}
        data-testid="totp-code"
      />
    </label>
  );
}

export function BindAddressForm({ currencies, errors, drawId, back, twoFactor }: BindFormProps) {
  const { t } = useTranslation("wallet");
  return (
    <Form method="post" className="form" data-testid="bind-address">
      <AuthenticityTokenInput />
      <Hidden name="intent" value="bind_address" />
      {back ? <Hidden name="back" value={back} /> : null}
      <FormErrors errors={errors} />
      <label className="field">
        <span>{t("network")}</span>
        <select name="draw_id" required defaultValue={drawId ?? undefined}>
          {currencies.map((c) => (
            <option key={c.id} value={c.id}>
              {c.code} ({c.protocol})
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>{t("address")}</span>
        <input name="dc_address" required maxLength={128} autoComplete="off" spellCheck={false} />
      </label>
      <SecurityCodeField on={twoFactor} />
      <button type="submit" className="btn btn-primary btn-block">
        {t("add_address")}
      </button>
    </Form>
  );
}

const BANK_FIELDS = [
  ["bank_name", 120],
  ["bank_address", 200],
  ["bank_swift", 11],
  ["payee_name", 120],
  ["payee_account", 64],
] as const;

export function BindBankForm({ currencies, errors, drawId, back, twoFactor }: BindFormProps) {
  const { t } = useTranslation("wallet");
  return (
    <Form method="post" className="form" data-testid="bind-bank">
      <AuthenticityTokenInput />
      <Hidden name="intent" value="bind_bank" />
      {back ? <Hidden name="back" value={back} /> : null}
      <FormErrors errors={errors} />
      <label className="field">
        <span>{t("currency")}</span>
        <select name="draw_id" required defaultValue={drawId ?? undefined}>
          {currencies.map((c) => (
            <option key={c.id} value={c.id}>
              {c.code}
            </option>
          ))}
        </select>
      </label>
      {BANK_FIELDS.map(([name, max]) => (
        <label className="field" key={name}>
          <span>{t(name)}</span>
          <input name={name} required maxLength={max} autoComplete="off" />
        </label>
      ))}
      <label className="field">
        <span>{t("remark")}</span>
        <input name="remark" maxLength={200} autoComplete="off" />
      </label>
      <SecurityCodeField on={twoFactor} />
      <button type="submit" className="btn btn-primary btn-block">
        {t("add_bank")}
      </button>
    </Form>
  );
}
