/** Sign-in page's server side: the tabs and area codes it shows, the login and demo forms. */
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, data } from "@remix-run/node";
import { callerFor } from "~/upstream/client.server";
import { createAccountDemoForU, loginDemo, loginForU } from "~/upstream/account.server";
import { areaList, isShowMobile } from "~/upstream/settings.server";
import { getSignedIn, safeRedirectPath } from "~/utils/session.server";
import { signIn } from "~/utils/session-user.server";
import { redirectWithToast } from "~/utils/toast.server";
import { readForm, refused, refusalStatus } from "~/utils/forms.server";
import { getZodConstraint } from "@conform-to/zod";
import { loginSchema } from "~/schemas/login";
import { demoSchema } from "~/schemas/demo";
import { deviceOf } from "~/utils/device.server";

/** The second step of a sign-in with two-factor on. */
export const SECOND_FACTOR_PATH = "/login/code";

function typeOf(url: URL, showMobile: boolean): "email" | "mobile" {
  return showMobile && url.searchParams.get("type") === "mobile" ? "mobile" : "email";
}

/** The form's constraint attributes, the same on every request: read from its schema once. */
const CONSTRAINT = getZodConstraint(loginSchema);

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const from = safeRedirectPath(url.searchParams.get("from"));
  if (await getSignedIn(request)) throw redirect(from);
  const caller = await callerFor(request);
  const mobile = await isShowMobile(caller);
  const showMobile = mobile.ok ? mobile.data : false;
  const type = typeOf(url, showMobile);
  const areas = type === "mobile" ? await areaList(caller) : null;
  return {
    type,
    showMobile,
    areas: areas?.ok ? areas.data : [],
    // The form's constraint attributes, from its schema: zod is not in the page's first JavaScript.
    constraint: CONSTRAINT,
    toast: areas && !areas.ok ? { type: "error" as const, text: areas.msg } : null,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const from = safeRedirectPath(url.searchParams.get("from"));
  const form = await readForm(
    request,
    { login: loginSchema, demo: demoSchema },
    { hideFields: ["password"] },
  );
  if (!form.ok)
    return refused(form, { form: form.intent === "demo" ? ("demo" as const) : ("login" as const) });
  const caller = await callerFor(request);

  if (form.intent === "demo") {
    const created = await createAccountDemoForU(caller);
    if (!created.ok)
      return data(
        { form: "demo" as const, result: form.reply({ formErrors: [created.msg] }) },
        { status: refusalStatus(created) },
      );
    const login = await loginDemo(caller, created.data.demo_id);
    if (!login.ok)
      return data(
        { form: "demo" as const, result: form.reply({ formErrors: [login.msg] }) },
        { status: refusalStatus(login) },
      );
    signIn(caller.session, login.data.token, login.data.user);
    throw await redirectWithToast(caller.session, from, {
      type: "success",
      text: created.msg || login.msg,
    });
  }

  const device = await deviceOf(request);
  const r = await loginForU(caller, { ...form.value, device: device.id });
  if (!r.ok)
    return data(
      { form: "login" as const, result: form.reply({ formErrors: [r.msg] }) },
      { status: refusalStatus(r) },
    );
  const headers = device.setCookie ? { "Set-Cookie": device.setCookie } : undefined;
  if ("second_factor" in r.data) {
    // The password was right; the session comes with the app's code (/login/code).
    const { challenge, expires_in } = r.data.second_factor;
    caller.session.set("secondFactor", {
      challenge,
      expiresAt: Date.now() + expires_in * 1000,
      from,
    });
    throw await redirectWithToast(
      caller.session,
      SECOND_FACTOR_PATH,
      { type: "info", text: r.msg },
      { headers },
    );
  }
  signIn(caller.session, r.data.token, r.data.user);
  throw await redirectWithToast(
    caller.session,
    from,
    { type: "success", text: r.msg },
    { headers },
  );
}
