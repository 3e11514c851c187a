/** The wallet's server side: the account's withdrawal destinations, and adding or deleting one. */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import {
  bindDrawMethod,
  delDrawMethod,
  drawSymbolList,
  getDrawMethod,
} from "~/upstream/finance.server";
import { requireSignedIn } from "~/utils/session.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import { bindAddressSchema, bindBankSchema, deleteMethodSchema } from "~/schemas/wallet";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const [addresses, banks, coins, bankCurrencies] = await Promise.all([
    getDrawMethod(caller, 1),
    getDrawMethod(caller, 2),
    drawSymbolList(caller, 1),
    drawSymbolList(caller, 2),
  ]);
  // A demo account (or another refusal): the upstream's translated reason instead of the wallet.
  const refusal = [addresses, banks, coins, bankCurrencies].find((r) => !r.ok);
  if (refusal && !refusal.ok)
    return { notice: refusal.msg, addresses: [], banks: [], coins: [], bankCurrencies: [] };
  return {
    notice: null as string | null,
    addresses: addresses.ok ? addresses.data : [],
    banks: banks.ok ? banks.data : [],
    coins: coins.ok ? coins.data : [],
    bankCurrencies: bankCurrencies.ok ? bankCurrencies.data : [],
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const form = await readForm(request, {
    bind_address: bindAddressSchema,
    bind_bank: bindBankSchema,
    delete: deleteMethodSchema,
  });
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  const v = form.value;
  const r =
    v.intent === "delete"
      ? await delDrawMethod(caller, v.id)
      : v.intent === "bind_address"
        ? await bindDrawMethod(caller, { type: 1, draw_id: v.draw_id, dc_address: v.dc_address })
        : await bindDrawMethod(caller, {
            type: 2,
            draw_id: v.draw_id,
            bank_name: v.bank_name,
            bank_address: v.bank_address,
            bank_swift: v.bank_swift,
            payee_name: v.payee_name,
            payee_account: v.payee_account,
            remark: v.remark,
          });
  if (!r.ok)
    return data(
      { refusedIntent: form.intent, result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  return redirectWithToast(request, "/mine/wallet", { type: "success", text: r.msg });
}
