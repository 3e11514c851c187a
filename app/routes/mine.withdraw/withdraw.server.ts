/**
 * The withdrawal screen's server side (/mine/withdraw?type=1|2&draw_id=N): the currencies of the
 * chosen kind, the account's free margin and balance, the destinations of the chosen currency, the
 * expected arrival (contract/withdraw-net.ts, the function the upstream books with) and the records;
 * the forms that calculate the arrival, request a withdrawal and cancel one under review. A refusal
 * answers 400 with its message on the form and changes nothing.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { DRAW_TYPE } from "@contract/enums";
import { PAGE_SIZE } from "@contract/constants";
import { withdrawNetText } from "@contract/withdraw-net";
import { callerFor, type Caller } from "~/upstream/client.server";
import {
  draw,
  drawCancel,
  drawList,
  drawSymbolList,
  getDrawMethod,
  type DrawType,
} from "~/upstream/finance.server";
import type { DrawCurrency } from "@contract/api/finance";
import { forexDetail } from "~/upstream/trading.server";
import { twoFactorStatus } from "~/upstream/security.server";
import { requireSignedIn } from "~/utils/session.server";
import { newIdempotencyKey, readForm, refused, refusalStatus } from "~/utils/forms.server";
import { redirectWithToast } from "~/utils/toast.server";
import { withdrawPath } from "~/utils/wallet-paths";
import { calculateSchema, cancelSchema, drawSchema, WMSG } from "~/schemas/withdraw";

/** The kind of withdrawal asked for: ?type=2 a bank account, anything else a coin address. */
function typeOf(q: URLSearchParams): DrawType {
  return q.get("type") === String(DRAW_TYPE.BANK) ? DRAW_TYPE.BANK : DRAW_TYPE.ADDRESS;
}

/** The expected arrival of `amount` USD in `c`'s units (null for an amount that is not a number). */
function arrivalOf(c: DrawCurrency, amount: string): string | null {
  return withdrawNetText(amount, c.fee_type, c.draw_rate, c.usd_price);
}

/** The records' page asked for (?page=): a whole number from 1 (anything else is page 1). */
function recordsPageOf(q: URLSearchParams): number {
  const raw = q.get("page") ?? "1";
  return /^\d{1,6}$/.test(raw) ? Math.max(1, Number(raw)) : 1;
}

async function screen(caller: Caller, q: URLSearchParams) {
  const type = typeOf(q);
  const recordsPage = recordsPageOf(q);
  const [currencies, detail, records, twoFactor] = await Promise.all([
    drawSymbolList(caller, type),
    forexDetail(caller),
    drawList(caller, type, recordsPage),
    twoFactorStatus(caller),
  ]);
  // A demo account (or another refusal): the upstream's translated reason instead of the screen.
  const refusal = [currencies, detail, records].find((r) => !r.ok);
  if (refusal && !refusal.ok) return { type, notice: refusal.msg } as const;
  const list = currencies.ok ? currencies.data : [];
  const wanted = Number(q.get("draw_id"));
  const currency = list.find((c) => c.id === wanted) ?? list[0] ?? null;
  const methods = currency ? await getDrawMethod(caller, type, currency.id) : null;
  if (methods && !methods.ok) return { type, notice: methods.msg } as const;
  return {
    type,
    notice: null,
    currencies: list,
    currency,
    methods: methods?.ok ? methods.data.filter((m) => m.draw_currency.id === currency?.id) : [],
    balance: detail.ok ? detail.data.balance : 0,
    canUse: detail.ok ? detail.data.can_use : 0,
    records: records.ok ? records.data.data : [],
    recordsPage,
    recordsPages: records.ok ? Math.max(1, Math.ceil(records.data.total / PAGE_SIZE)) : 1,
    twoFactor: twoFactor.ok && twoFactor.data.enabled,
  } as const;
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const s = await screen(caller, new URL(request.url).searchParams);
  return { lang: caller.lang, key: newIdempotencyKey(), ...s };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const form = await readForm(request, {
    calculate: calculateSchema,
    draw: drawSchema,
    cancel: cancelSchema,
  });
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  const q = new URL(request.url).searchParams;
  const here = withdrawPath(typeOf(q), Number(q.get("draw_id")) || null);
  const v = form.value;
  const refuse = (msg: string, status: 400 | 403 | 429 = 400) =>
    data(
      { refusedIntent: form.intent, result: form.reply({ formErrors: [msg] }), arrival: null },
      { status },
    );

  if (v.intent === "cancel") {
    const r = await drawCancel(caller, v.id, form.idempotencyKey);
    if (!r.ok) return refuse(r.msg, refusalStatus(r));
    return redirectWithToast(request, here, { type: "success", text: r.msg });
  }

  const type = typeOf(q);
  const currencies = await drawSymbolList(caller, type);
  if (!currencies.ok) return refuse(currencies.msg, refusalStatus(currencies));
  const currency = currencies.data.find((c) => c.id === v.draw_currency_id);
  if (!currency) return refuse(WMSG.noChannel);

  // Calculate: the expected arrival for the amount, shown before confirming (nothing changes).
  if (v.intent === "calculate")
    return {
      refusedIntent: null,
      result: form.reply(),
      arrival: { amount: v.number, net: arrivalOf(currency, v.number) },
    };

  if (v.draw_method_id === undefined) {
    const methods = await getDrawMethod(caller, currency.type as DrawType, currency.id);
    const none = methods.ok && methods.data.length === 0;
    return refuse(none ? WMSG.noAccount : WMSG.selectAddress);
  }
  const r = await draw(
    caller,
    {
      draw_currency_id: currency.id,
      number: v.number,
      draw_method_id: v.draw_method_id,
      memo: v.memo || undefined,
      totp_code: v.totp_code,
    },
    form.idempotencyKey,
  );
  if (!r.ok) return refuse(r.msg, refusalStatus(r));
  return redirectWithToast(request, withdrawPath(type, currency.id), {
    type: "success",
    text: r.msg,
  });
}
