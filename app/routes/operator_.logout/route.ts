/**
 * The console's sign-out (POST only): ends the operator's token at the upstream (POST
 * /admin/api/logout) and clears the console session; the user's session is left as it is.
 */
import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { readForm } from "~/utils/forms.server";
import { operatorLogoutSchema } from "~/schemas/operator";
import { operatorLogout } from "~/upstream/operator.server";
import { getOperator, operatorSignedOut, OPERATOR_LOGIN } from "~/utils/operator-session.server";
import { getT } from "~/i18n.server";

export async function loader() {
  return redirect(OPERATOR_LOGIN);
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request, operatorLogoutSchema);
  if (!form.ok)
    return Response.json(
      { refusedIntent: form.intent, result: form.result },
      { status: form.status, headers: { "Cache-Control": "no-store" } },
    );
  const op = await getOperator(request);
  if (op) await operatorLogout(request, op.token);
  const t = await getT(request, ["operator"]);
  return operatorSignedOut(request, { type: "success", text: t("operator:signed_out") });
}
