/**
 * Add a withdrawal destination (login required; product-spec.md section 2, withdrawWay):
 * ?type=1 a coin address, ?type=2 a bank account (anything else is 1); ?draw_id=N chooses the
 * currency first, and ?back=withdraw returns to the withdrawal screen on that currency once added
 * (otherwise to the list of its kind). Demo accounts see the real-account message.
 */
import { useActionData, useLoaderData } from "@remix-run/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useTranslation } from "~/translation";
import { DRAW_TYPE } from "@contract/enums";
import { PageHeader } from "~/components/PageHeader";
import { BindAddressForm, BindBankForm, WalletNotice, useRefusal } from "~/components/Wallet";
import { loadWallet, walletAction } from "~/utils/wallet.server";
import { LIST_OF } from "~/utils/wallet-paths";

export const handle = { i18n: ["common", "auth", "wallet", "security"] };

function typeOf(request: Request) {
  const raw = new URL(request.url).searchParams.get("type");
  return raw === String(DRAW_TYPE.BANK) ? DRAW_TYPE.BANK : DRAW_TYPE.ADDRESS;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const type = typeOf(request);
  const q = new URL(request.url).searchParams;
  const drawId = Number(q.get("draw_id"));
  const wallet = await loadWallet(request, [type]);
  return {
    type,
    notice: wallet.notice,
    currencies: type === DRAW_TYPE.BANK ? wallet.bankCurrencies : wallet.coins,
    drawId: Number.isSafeInteger(drawId) && drawId > 0 ? drawId : null,
    back: q.get("back") === "withdraw" ? "withdraw" : null,
    twoFactor: wallet.twoFactor,
  };
}

export function action({ request }: ActionFunctionArgs) {
  // The posted form says which kind it adds; its list is where it lands (unless back=withdraw).
  return walletAction(
    request,
    (intent) => LIST_OF[intent === "bind_bank" ? DRAW_TYPE.BANK : DRAW_TYPE.ADDRESS],
    ["bind_address", "bind_bank"],
  );
}

export default function WithdrawWay() {
  const d = useLoaderData<typeof loader>();
  const errorsFor = useRefusal(useActionData<typeof action>());
  const { t } = useTranslation("wallet");
  const bank = d.type === DRAW_TYPE.BANK;
  return (
    <div className="wallet">
      <PageHeader title={t(bank ? "add_bank" : "add_address")} back={LIST_OF[d.type]} />
      {d.notice ? (
        <WalletNotice text={d.notice} />
      ) : (
        <section className="card">
          {bank ? (
            <BindBankForm
              currencies={d.currencies}
              errors={errorsFor("bind_bank")}
              drawId={d.drawId}
              back={d.back}
              twoFactor={d.twoFactor}
            />
          ) : (
            <BindAddressForm
              currencies={d.currencies}
              errors={errorsFor("bind_address")}
              drawId={d.drawId}
              back={d.back}
              twoFactor={d.twoFactor}
            />
          )}
        </section>
      )}
    </div>
  );
}
