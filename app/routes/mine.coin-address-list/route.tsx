/**
 * Coin addresses (login required; product-spec.md section 2, coinAddressList): the account's
 * withdrawal addresses with a delete form each, and the way to add one (/mine/withdraw-way?type=1).
 * Demo accounts see the real-account message.
 */
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "~/translation";
import { DRAW_TYPE } from "@contract/enums";
import { PageHeader } from "~/components/PageHeader";
import { FormErrors } from "~/components/Form";
import { AddressList, WalletNotice, useRefusal } from "~/components/Wallet";
import { loadWallet, walletAction } from "~/utils/wallet.server";
import { LIST_OF, bindPath } from "~/utils/wallet-paths";

export const handle = { i18n: ["common", "auth", "wallet"] };

export function loader({ request }: LoaderFunctionArgs) {
  return loadWallet(request, [DRAW_TYPE.ADDRESS]);
}

export function action({ request }: ActionFunctionArgs) {
  return walletAction(request, LIST_OF[DRAW_TYPE.ADDRESS], ["delete"]);
}

export default function CoinAddressList() {
  const d = useLoaderData<typeof loader>();
  const errorsFor = useRefusal(useActionData<typeof action>());
  const { t } = useTranslation("wallet");
  return (
    <div className="wallet">
      <PageHeader title={t("addresses")} back="/mine/wallet" />
      {d.notice ? (
        <WalletNotice text={d.notice} />
      ) : (
        <section className="card">
          <FormErrors errors={errorsFor("delete")} />
          <AddressList addresses={d.addresses} />
          <Link to={bindPath(DRAW_TYPE.ADDRESS)} className="btn btn-primary btn-block">
            {t("add_address")}
          </Link>
        </section>
      )}
    </div>
  );
}
