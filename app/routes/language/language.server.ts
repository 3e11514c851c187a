/** Language page's server side: the current language and the form that stores the choice. */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { detectLang, localeCookie } from "~/i18n.server";
import { readForm, refused } from "~/utils/forms.server";
import { safeRedirectPath } from "~/utils/session.server";
import { languageSchema } from "~/schemas/language";

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  return {
    current: await detectLang(request),
    back: safeRedirectPath(url.searchParams.get("redirect_to"), ""),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readForm(request, languageSchema);
  if (!form.ok) return refused(form);
  const to = safeRedirectPath(form.value.redirect_to, "/user");
  return redirect(to, { headers: { "Set-Cookie": await localeCookie.serialize(form.value.lng) } });
}
