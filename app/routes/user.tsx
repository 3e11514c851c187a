/**
 * User centre (login required): the card with e-mail or the demo label, uid and balance with a hide
 * toggle (a POST form that flips a cookie, so it works without JS), then the centre's entries whose
 * screens exist in this build.
 */
import { Form, Link, useLoaderData } from "@remix-run/react";
import { createCookie, redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "react-i18next";
import { callerFor, failureToast } from "~/upstream/client.server";
import { getBalance, userInfo } from "~/upstream/account.server";
import { requireSignedIn } from "~/session.server";
import { redirectWithToast } from "~/toast.server";
import { newIdempotencyKey, readForm } from "~/forms.server";
import { resetForexDemoAccount } from "~/upstream/trading.server";
import { hasRoute } from "~/context.server";
import { secureCookies } from "~/config.server";
import { balanceVisibilitySchema } from "~/schemas/balance-visibility";
import { demoResetSchema } from "~/schemas/demo-reset";
import { formatMoney } from "~/components/format";
import { PageHeader } from "~/components/PageHeader";
import { Icon, type IconName } from "~/components/Icon";

export const handle = { i18n: ["common"] };

// Made on first use, never at module level: this module is also bundled for the browser, where
// @remix-run/node's createCookie does not exist (a module-level call broke client navigation to /user).
let hideCookie: ReturnType<typeof createCookie> | null = null;
const hideBalanceCookie = () =>
  (hideCookie ??= createCookie("tp_hide_balance", {
    path: "/",
    sameSite: "lax",
    httpOnly: true,
    secure: secureCookies,
    maxAge: 60 * 60 * 24 * 365,
  }));

/** The user centre's entries (product-spec.md section 2), shown only when their route exists. */
const ENTRIES: { key: string; to: string; icon: IconName; real?: boolean }[] = [
  { key: "charge", to: "/mine/charge", icon: "chevron", real: true },
  { key: "withdraw", to: "/mine/withdraw", icon: "chevron", real: true },
  { key: "wallet", to: "/mine/wallet", icon: "chevron", real: true },
  { key: "auth", to: "/mine/auth", icon: "chevron", real: true },
  { key: "invite", to: "/mine/invite", icon: "chevron", real: true },
  { key: "password", to: "/mine/password", icon: "chevron", real: true },
  { key: "chat", to: "/mine/chat", icon: "chevron" },
  { key: "email", to: "/mine/email", icon: "chevron" },
  { key: "announcement", to: "/mine/announcement", icon: "chevron" },
  { key: "language", to: "/language", icon: "globe" },
  { key: "system", to: "/mine/system", icon: "settings" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireSignedIn(request);
  const caller = await callerFor(request);
  const [info, balance] = await Promise.all([userInfo(caller), getBalance(caller)]);
  const hide = (await hideBalanceCookie().parse(request.headers.get("Cookie"))) === "1";
  const u = info.ok ? info.data : user;
  return {
    lang: caller.lang,
    email: u.email,
    mobile: u.mobile,
    uid: u.uid,
    isDemo: Number(u.is_demo) === 1,
    balance: balance.ok ? balance.data.balance : null,
    hide,
    historyLink: hasRoute(context, "/mine/history"),
    resetKey: newIdempotencyKey(),
    entries: ENTRIES.filter((e) => hasRoute(context, e.to)).map(({ key, to, icon }) => ({ key, to, icon })),
    toast: failureToast(info, balance),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  const { formData, csrfError } = await readForm(request);
  if (csrfError) return redirectWithToast(request, "/user", { type: "error", text: csrfError });
  if (formData.get("intent") === "reset_demo") {
    const reset = parseWithZod(formData, { schema: demoResetSchema });
    if (reset.status !== "success") return redirect("/user");
    const r = await resetForexDemoAccount(await callerFor(request), reset.value.idempotency_key);
    return redirectWithToast(request, "/user", { type: r.ok ? "success" : "error", text: r.msg });
  }
  const submission = parseWithZod(formData, { schema: balanceVisibilitySchema });
  if (submission.status !== "success") return redirect("/user");
  return redirect("/user", { headers: { "Set-Cookie": await hideBalanceCookie().serialize(submission.value.hide) } });
}

export default function User() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("common");
  const name = d.isDemo ? t("user.demo_label") : (d.email ?? d.mobile ?? "");
  const balance = d.hide ? "******" : formatMoney(d.balance, d.lang);
  const card = (
    <>
      <div className="ucard-top">
        <span className="avatar" aria-hidden="true">
          <Icon name="user" size={28} />
        </span>
        <div>
          <p className="ucard-name" data-testid="user-name">
            {name}
            {d.isDemo ? <span className="badge demo">{t("user.demo_badge")}</span> : null}
          </p>
          <p className="ucard-uid">
            {t("user.uid")}: <span data-testid="user-uid">{d.uid}</span>
          </p>
        </div>
      </div>
      <p className="ucard-label">{t("user.balance")} (USD)</p>
      <p className="ucard-balance" data-testid="user-balance">
        {balance}
      </p>
    </>
  );
  return (
    <div className="user">
      <PageHeader title={t("user.title")} />
      <section className="ucard" aria-label={t("user.card")}>
        {d.historyLink ? (
          <Link to="/mine/history" className="ucard-link">
            {card}
          </Link>
        ) : (
          card
        )}
        <Form method="post" className="ucard-toggle">
          <AuthenticityTokenInput />
          <input type="hidden" name="intent" value="toggle_balance" />
          <input type="hidden" name="hide" value={d.hide ? "0" : "1"} />
          <button type="submit" className="iconbtn light" aria-label={d.hide ? t("user.show_balance") : t("user.hide_balance")} aria-pressed={d.hide}>
            <Icon name={d.hide ? "eyeOff" : "eye"} />
          </button>
        </Form>
      </section>
      {d.isDemo ? (
        <details className="card demo-reset">
          <summary className="menu-item">
            <span>{t("user.reset_demo")}</span>
            <Icon name="chevron" size={18} className="flip-rtl" />
          </summary>
          <Form method="post" className="demo-reset-form">
            <AuthenticityTokenInput />
            <input type="hidden" name="intent" value="reset_demo" />
            <input type="hidden" name="idempotency_key" value={d.resetKey} />
            <p>{t("user.reset_demo_explain")}</p>
            <button type="submit" className="btn btn-danger btn-block">
              {t("user.reset_demo_confirm")}
            </button>
          </Form>
        </details>
      ) : null}
      {d.entries.length > 0 ? (
        <ul className="menu card" role="list">
          {d.entries.map((e) => (
            <li key={e.key}>
              <Link to={e.to} className="menu-item">
                <span>{t(`user.entry.${e.key}`)}</span>
                <Icon name="chevron" size={18} className="flip-rtl" />
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
