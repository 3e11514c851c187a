/** The deposit queue's server side: one status tab, paged; approve, reject or invalid. */
import { data, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { PAGE_SIZE } from "@contract/constants";
import { approveCharge, charges, decideCharge } from "~/upstream/operator.server";
import { requireOperator, operatorRedirect } from "~/utils/operator-session.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { backTo, CHARGE_TABS, pageParam, statusParam, uploadName } from "~/utils/console";
import { approveChargeSchema, invalidChargeSchema, rejectChargeSchema } from "~/schemas/operator";
import { detectLang, getT } from "~/i18n.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const op = await requireOperator(request);
  const url = new URL(request.url);
  const status = statusParam(
    url,
    CHARGE_TABS.map(([s]) => s),
  );
  const page = pageParam(url);
  const r = await charges({ request, op }, status, page);
  const list = r.ok ? r.data : { data: [], total: 0 };
  return data(
    {
      lang: await detectLang(request),
      status,
      page,
      pages: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
      total: list.total,
      items: list.data.map((c) => ({
        ...c,
        proof: `/operator/uploads/${uploadName(c.proof_url)}`,
      })),
      notice: r.ok ? null : r.msg,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const op = await requireOperator(request);
  const form = await readForm(request, {
    approve: approveChargeSchema,
    reject: rejectChargeSchema,
    invalid: invalidChargeSchema,
  });
  if (!form.ok) return refused(form, { refusedId: Number(form.formData.get("id")) || 0 });
  const v = form.value;
  const r =
    v.intent === "approve"
      ? await approveCharge({ request, op }, v.id, v.amount)
      : await decideCharge({ request, op }, v.intent, v.id, v.remark);
  if (!r.ok)
    return data(
      {
        refusedIntent: form.intent,
        refusedId: v.id,
        result: form.reply({ formErrors: [r.msg] }),
      },
      { status: refusalStatus(r) },
    );
  const t = await getT(request, ["operator"]);
  return operatorRedirect(op, backTo(request), {
    type: "success",
    text: t(`operator:charge_done_${v.intent}`, { id: v.id }),
  });
}
