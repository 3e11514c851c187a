/** User centre's server side: the card's figures, the entries, the balance toggle and demo reset. */
import { rememberedCookie } from "~/utils/remembered-cookie.server";
import {
  createCookie,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
} from "@remix-run/node";
import { noticeList } from "~/upstream/notify.server";
import { callerFor, failureToast } from "~/upstream/client.server";
import { getBalance, userInfo } from "~/upstream/account.server";
import { resetForexDemoAccount } from "~/upstream/trading.server";
import { requireSignedIn } from "~/utils/session.server";
import { redirectWithToast } from "~/utils/toast.server";
import { newIdempotencyKey, readForm, refused } from "~/utils/forms.server";
import { hasRoute } from "~/utils/context.server";
import { IS_DEMO } from "@contract/enums";
import { balanceVisibilitySchema } from "~/schemas/balance-visibility";
import { demoResetSchema } from "~/schemas/demo-reset";
import type { IconName } from "~/components/Icon";

// Made on first use: the environment is read when the first request comes.
let hideCookie: ReturnType<typeof createCookie> | null = null;
const hideBalanceCookie = () => (hideCookie ??= rememberedCookie("tp_hide_balance"));

/** The user centre's entries (product-spec.md section 2), shown only when their route exists. */
const ENTRIES: { key: string; to: string; icon: IconName; real?: boolean }[] = [
  { key: "notifications", to: "/mine/notifications", icon: "chevron" },
  { key: "alerts", to: "/mine/alerts", icon: "chevron" },
  { key: "watchlists", to: "/mine/watchlists", icon: "chevron" },
  { key: "statements", to: "/mine/statements", icon: "chevron", real: true },
  { key: "stats", to: "/mine/stats", icon: "chevron" },
  { key: "charge", to: "/mine/charge", icon: "chevron", real: true },
  { key: "withdraw", to: "/mine/withdraw", icon: "chevron", real: true },
  { key: "wallet", to: "/mine/wallet", icon: "chevron", real: true },
  { key: "auth", to: "/mine/auth", icon: "chevron", real: true },
  { key: "invite", to: "/mine/invite", icon: "chevron", real: true },
  { key: "copies", to: "/mine/copies", icon: "chevron" },
  { key: "provider", to: "/mine/provider", icon: "chevron" },
  { key: "password", to: "/mine/password", icon: "chevron", real: true },
  { key: "security", to: "/mine/security", icon: "chevron", real: true },
  { key: "chat", to: "/mine/chat", icon: "chevron" },
  { key: "email", to: "/mine/email", icon: "chevron" },
  { key: "announcement", to: "/mine/announcement", icon: "chevron" },
  { key: "language", to: "/language", icon: "globe" },
  { key: "system", to: "/mine/system", icon: "settings" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { user } = await requireSignedIn(request);
  const caller = await callerFor(request);
  const notices = hasRoute(context, "/mine/notifications");
  const [info, balance, unread] = await Promise.all([
    userInfo(caller),
    getBalance(caller),
    notices ? noticeList(caller, 1) : null,
  ]);
  const hide = (await hideBalanceCookie().parse(request.headers.get("Cookie"))) === "1";
  const u = info.ok ? info.data : user;
  return {
    lang: caller.lang,
    email: u.email,
    mobile: u.mobile,
    uid: u.uid,
    isDemo: Number(u.is_demo) === IS_DEMO.DEMO,
    balance: balance.ok ? balance.data.balance : null,
    hide,
    historyLink: hasRoute(context, "/mine/history"),
    resetKey: newIdempotencyKey(),
    entries: ENTRIES.filter((e) => hasRoute(context, e.to)).map(({ key, to, icon }) => ({
      key,
      to,
      icon,
    })),
    toast: failureToast(info, balance),
    unread: unread?.ok ? unread.data.unread : 0,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireSignedIn(request);
  // The same screen answers at /user and /mine: come back to the one that posted.
  const back = new URL(request.url).pathname === "/mine" ? "/mine" : "/user";
  const form = await readForm(request, {
    toggle_balance: balanceVisibilitySchema,
    reset_demo: demoResetSchema,
  });
  if (!form.ok) return refused(form);
  if (form.intent === "reset_demo") {
    const r = await resetForexDemoAccount(await callerFor(request), form.value.idempotency_key);
    return redirectWithToast(request, back, { type: r.ok ? "success" : "error", text: r.msg });
  }
  return redirect(back, {
    headers: { "Set-Cookie": await hideBalanceCookie().serialize(form.value.hide) },
  });
}
