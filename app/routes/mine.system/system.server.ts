/** System settings' server side: the current language and the sign-out form. */
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requireSignedIn } from "~/utils/session.server";
import { readForm, refused } from "~/utils/forms.server";
import { signOut } from "~/utils/session-user.server";
import { detectLang } from "~/i18n.server";
import { LANGUAGE_LABEL } from "~/i18n";
import { logoutSchema } from "~/schemas/logout";
import { IS_DEMO } from "@contract/enums";

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireSignedIn(request);
  const lang = await detectLang(request);
  return { language: LANGUAGE_LABEL[lang], isDemo: Number(user.is_demo) === IS_DEMO.DEMO };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const form = await readForm(request, logoutSchema);
  if (!form.ok) return refused(form);
  return signOut(request);
}
