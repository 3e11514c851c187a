/**
 * /mine/alerts' server side: the account's price alerts, the form that sets one (the instrument
 * chosen first: ?code=, from the trade screen's "Set alert", with its price now), and removing one.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { alertCreate, alertDelete, alertList } from "~/upstream/alerts.server";
import { callerFor } from "~/upstream/client.server";
import { tradeList } from "~/upstream/market.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { requireSignedIn } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { alertCreateSchema, alertDeleteSchema } from "~/schemas/alerts";

export async function loader({ request }: LoaderFunctionArgs) {
  await requireSignedIn(request);
  const caller = await callerFor(request);
  const [alerts, instruments] = await Promise.all([alertList(caller), tradeList(caller)]);
  const list = instruments.ok ? instruments.data : [];
  const code = new URL(request.url).searchParams.get("code");
  const chosen = list.find((i) => i.Code === code) ?? null;
  return {
    lang: caller.lang,
    alerts: alerts.ok ? alerts.data : [],
    instruments: list.map((i) => ({
      id: i.Id,
      code: i.Code,
      name: i.ShowCode,
      price: i.ForexQuotations.Close,
      precision: i.PricePrecision,
    })),
    chosen: chosen ? { id: chosen.Id, price: chosen.ForexQuotations.Close } : null,
    notice: alerts.ok ? null : alerts.msg,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const form = await readForm(request, { create: alertCreateSchema, delete: alertDeleteSchema });
  if (!form.ok) return refused(form);
  const caller = await callerFor(request);
  const v = form.value;
  const r =
    v.intent === "delete"
      ? await alertDelete(caller, v.id)
      : await alertCreate(caller, {
          forex_id: v.forex_id,
          condition: v.condition,
          target: v.target,
          repeat: v.repeat,
          cooldown_min: v.repeat === "every" ? v.cooldown_min : undefined,
          until: v.until,
        });
  if (!r.ok)
    return data(
      { refusedIntent: form.intent, result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  return redirectWithToast(caller.session, "/mine/alerts", { type: "success", text: r.msg });
}
