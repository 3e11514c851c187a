/**
 * The wallet's server side, shared by /mine/wallet, /mine/coin-address-list, /mine/bank-card-list
 * and /mine/withdraw-way: the account's withdrawal destinations and currencies, and the forms that
 * add or delete a destination (a refusal answers 400 with the upstream's message on the form).
 */
import { data } from "@remix-run/node";
import { DRAW_TYPE } from "@contract/enums";
import { callerFor } from "~/upstream/client.server";
import {
  bindDrawMethod,
  delDrawMethod,
  drawSymbolList,
  getDrawMethod,
  type DrawType,
} from "~/upstream/finance.server";
import type { DrawCurrency, DrawMethod } from "@contract/api/finance";
import { twoFactorStatus } from "~/upstream/security.server";
import { requireSignedIn } from "~/utils/session.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import { bindAddressSchema, bindBankSchema, deleteMethodSchema } from "~/schemas/wallet";

interface WalletData {
  /** The upstream's reason when it refuses the wallet (a demo account), else null. */
  notice: string | null;
  addresses: DrawMethod[];
  banks: DrawMethod[];
  /** Withdrawal currencies a coin address can receive. */
  coins: DrawCurrency[];
  /** Withdrawal currencies a bank account can receive. */
  bankCurrencies: DrawCurrency[];
  /** Two-factor sign-in is on: a new destination needs a code. */
  twoFactor: boolean;
}

/** The wallet's destinations and currencies of the kinds asked for (the others stay empty). */
export async function loadWallet(
  request: Request,
  kinds: readonly DrawType[] = [DRAW_TYPE.ADDRESS, DRAW_TYPE.BANK],
): Promise<WalletData> {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const want = (t: DrawType) => kinds.includes(t);
  const none = Promise.resolve({ ok: true as const, data: [] });
  const [addresses, banks, coins, bankCurrencies, twoFactor] = await Promise.all([
    want(DRAW_TYPE.ADDRESS) ? getDrawMethod(caller, DRAW_TYPE.ADDRESS) : none,
    want(DRAW_TYPE.BANK) ? getDrawMethod(caller, DRAW_TYPE.BANK) : none,
    want(DRAW_TYPE.ADDRESS) ? drawSymbolList(caller, DRAW_TYPE.ADDRESS) : none,
    want(DRAW_TYPE.BANK) ? drawSymbolList(caller, DRAW_TYPE.BANK) : none,
    twoFactorStatus(caller),
  ]);
  // A demo account (or another refusal): the upstream's translated reason instead of the wallet.
  const refusal = [addresses, banks, coins, bankCurrencies].find((r) => !r.ok);
  if (refusal && !refusal.ok)
    return {
      notice: refusal.msg,
      addresses: [],
      banks: [],
      coins: [],
      bankCurrencies: [],
      twoFactor: false,
    };
  return {
    notice: null,
    addresses: addresses.ok ? (addresses.data as DrawMethod[]) : [],
    banks: banks.ok ? (banks.data as DrawMethod[]) : [],
    coins: coins.ok ? (coins.data as DrawCurrency[]) : [],
    bankCurrencies: bankCurrencies.ok ? (bankCurrencies.data as DrawCurrency[]) : [],
    twoFactor: twoFactor.ok && twoFactor.data.enabled,
  };
}

const SCHEMAS = {
  bind_address: bindAddressSchema,
  bind_bank: bindBankSchema,
  delete: deleteMethodSchema,
};
type WalletIntent = keyof typeof SCHEMAS;

/**
 * Adds or deletes a destination (only the `intents` the screen offers), then shows `home` with the
 * upstream's message; after adding, `back: "withdraw"` returns to the withdrawal screen on the
 * currency just bound.
 */
export async function walletAction(
  request: Request,
  home: string | ((intent: WalletIntent) => string),
  intents: readonly WalletIntent[] = ["bind_address", "bind_bank", "delete"],
) {
  await requireSignedIn(request);
  const schemas = Object.fromEntries(intents.map((i) => [i, SCHEMAS[i]])) as Partial<
    typeof SCHEMAS
  >;
  const form = await readForm(request, schemas as typeof SCHEMAS);
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  const v = form.value;
  const r =
    v.intent === "delete"
      ? await delDrawMethod(caller, v.id)
      : v.intent === "bind_address"
        ? await bindDrawMethod(caller, {
            type: DRAW_TYPE.ADDRESS,
            draw_id: v.draw_id,
            dc_address: v.dc_address,
            totp_code: v.totp_code,
          })
        : await bindDrawMethod(caller, {
            type: DRAW_TYPE.BANK,
            draw_id: v.draw_id,
            bank_name: v.bank_name,
            bank_address: v.bank_address,
            bank_swift: v.bank_swift,
            payee_name: v.payee_name,
            payee_account: v.payee_account,
            remark: v.remark,
            totp_code: v.totp_code,
          });
  if (!r.ok)
    return data(
      { refusedIntent: form.intent, result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  const to =
    v.intent !== "delete" && v.back === "withdraw"
      ? `/mine/withdraw?${new URLSearchParams({
          type: String(v.intent === "bind_address" ? DRAW_TYPE.ADDRESS : DRAW_TYPE.BANK),
          draw_id: String(v.draw_id),
        })}`
      : typeof home === "string"
        ? home
        : home(v.intent);
  return redirectWithToast(request, to, { type: "success", text: r.msg });
}
