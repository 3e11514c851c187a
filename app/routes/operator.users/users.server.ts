/**
 * User lookup's server side: users by uid, e-mail or phone (`?q=`) with their money; the chosen
 * user's ledger (`?uid=`, paged); an adjustment (signed amount and remark) booked by the upstream;
 * a two-factor reset filed for a second operator.
 */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { PAGE_SIZE } from "@contract/constants";
import { adjust, findUsers, resetTwoFactor, userLedger } from "~/upstream/operator.server";
import { actionToast, requireOperator, operatorRedirect } from "~/utils/operator-session.server";
import { newIdempotencyKey, readForm, refused, refusalStatus } from "~/utils/forms.server";
import { backTo, pageParam } from "~/utils/console";
import { adjustSchema, twoFactorResetSchema } from "~/schemas/operator";
import { detectLang, getT } from "~/i18n.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const op = await requireOperator(request);
  const url = new URL(request.url);
  const q = (url.searchParams.get("q") ?? "").trim().slice(0, 128);
  const uid = (url.searchParams.get("uid") ?? "").trim().slice(0, 64);
  const page = pageParam(url);
  const [found, ledger] = await Promise.all([
    findUsers({ request, op }, q),
    uid ? userLedger({ request, op }, uid, page) : Promise.resolve(null),
  ]);
  return data(
    {
      lang: await detectLang(request),
      q,
      uid,
      page,
      /** The adjustment form's key: one booking however often it is sent. */
      idempotencyKey: newIdempotencyKey(),
      users: found.ok ? found.data : [],
      ledger: ledger?.ok
        ? { rows: ledger.data.data, pages: Math.max(1, Math.ceil(ledger.data.total / PAGE_SIZE)) }
        : null,
      notice: !found.ok ? found.msg : ledger && !ledger.ok ? ledger.msg : null,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const op = await requireOperator(request);
  const form = await readForm(request, {
    adjust: adjustSchema,
    reset_two_factor: twoFactorResetSchema,
  });
  if (!form.ok) return refused(form);
  if (form.intent === "reset_two_factor") {
    const { uid, remark } = form.value;
    const r = await resetTwoFactor({ request, op }, { uid, remark });
    if (!r.ok)
      return data(
        { refusedIntent: form.intent, result: form.reply({ formErrors: [r.msg] }) },
        { status: refusalStatus(r) },
      );
    return operatorRedirect(op, backTo(request), actionToast(r, r.msg));
  }
  const v = form.value;
  const r = await adjust(
    { request, op },
    { uid: v.uid, amount: v.amount, remark: v.remark },
    form.idempotencyKey,
  );
  if (!r.ok)
    return data(
      { refusedIntent: form.intent, result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  const t = await getT(request, ["operator"]);
  return operatorRedirect(
    op,
    backTo(request),
    actionToast(r, t("operator:adjusted", { uid: v.uid, amount: v.amount })),
  );
}
