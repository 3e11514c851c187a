/**
 * Wallet (login required; product-spec.md section 2): the account's withdrawal destinations, coin
 * addresses and bank accounts, each with a delete form, and the forms that add one; each kind also
 * has its own screen (/mine/coin-address-list, /mine/bank-card-list, /mine/withdraw-way). Plain
 * POST forms: the same with and without JavaScript. Demo accounts see the real-account message.
 */
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { PageHeader } from "~/components/PageHeader";
import { FormErrors } from "~/components/Form";
import {
  AddressList,
  BankList,
  BindAddressForm,
  BindBankForm,
  WalletNotice,
  useRefusal,
} from "~/components/Wallet";
import type { action, loader } from "./wallet.server";

export { action, loader } from "./wallet.server";

export const handle = { i18n: ["common", "auth", "wallet", "security"] };

export default function Wallet() {
  const d = useLoaderData<typeof loader>();
  const errorsFor = useRefusal(useActionData<typeof action>());
  const { t } = useTranslation("wallet");

  if (d.notice)
    return (
      <div className="wallet">
        <PageHeader title={t("title")} back="/user" />
        <WalletNotice text={d.notice} />
      </div>
    );

  return (
    <div className="wallet">
      <PageHeader title={t("title")} back="/user" />
      <FormErrors errors={errorsFor("delete")} />

      <section className="card" aria-labelledby="wallet-addresses">
        <h2 id="wallet-addresses">{t("addresses")}</h2>
        <AddressList addresses={d.addresses} />
        <BindAddressForm
          currencies={d.coins}
          errors={errorsFor("bind_address")}
          twoFactor={d.twoFactor}
        />
        <Link to="/mine/coin-address-list" className="btn btn-block">
          {t("manage_addresses")}
        </Link>
      </section>

      <section className="card" aria-labelledby="wallet-banks">
        <h2 id="wallet-banks">{t("banks")}</h2>
        <BankList banks={d.banks} />
        <BindBankForm
          currencies={d.bankCurrencies}
          errors={errorsFor("bind_bank")}
          twoFactor={d.twoFactor}
        />
        <Link to="/mine/bank-card-list" className="btn btn-block">
          {t("manage_banks")}
        </Link>
      </section>
    </div>
  );
}
