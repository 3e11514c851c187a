/**
 * The operator console's layout (/operator/*): only for a signed-in operator (console session;
 * a user's session never opens it), with its own navigation instead of the users' tab bar, the
 * operator's name and role and the sign-out form. Toasts of console actions come from the console
 * session. Its loader data carries the role for the pages' `useConsoleCan` (app/utils/console.ts).
 */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  NavLink,
  Outlet,
  useLoaderData,
  useRouteError,
} from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { commitOperatorSession, requireOperator } from "~/utils/operator-session.server";

export const handle = { i18n: ["common", "auth", "operator", "verify", "company", "content"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const op = await requireOperator(request);
  const toast = op.session.get("toast") ?? null;
  const headers = new Headers({ "Cache-Control": "private, no-store" });
  if (toast) headers.append("Set-Cookie", await commitOperatorSession(op.session));
  return data({ name: op.name, role: op.role, toast }, { headers });
}

const LINKS = [
  ["/operator", "nav_charges"],
  ["/operator/draws", "nav_draws"],
  ["/operator/requests", "nav_requests"],
  ["/operator/verifications", "verify:nav_verifications"],
  ["/operator/users", "nav_users"],
  ["/operator/copies", "nav_copies"],
  ["/operator/providers", "nav_providers"],
  ["/operator/settings", "nav_settings"],
  ["/operator/audit", "nav_audit"],
  ["/operator/feedback", "company:nav_feedback"],
  ["/operator/companies", "company:nav_companies"],
  ["/operator/news", "content:nav_news"],
  ["/operator/news-categories", "content:nav_news_categories"],
  ["/operator/notices", "content:nav_notices"],
] as const;

/** The money catalogue: what users deposit to and withdraw in. */
const MONEY_LINKS = [
  ["/operator/channels", "nav_channels"],
  ["/operator/wire-accounts", "nav_wire_accounts"],
  ["/operator/draw-currencies", "nav_draw_currencies"],
] as const;

export default function OperatorLayout() {
  const { name, role } = useLoaderData<typeof loader>();
  const { t } = useTranslation(["operator", "verify", "company", "content"]);
  return (
    <div className="console">
      <header className="console-head">
        <strong className="console-brand">{t("console")}</strong>
        <span className="muted" data-testid="operator-name">
          {name}
        </span>
        <span className="badge closed" data-testid="operator-role" data-role={role}>
          {t(`role_${role}`)}
        </span>
        <Form method="post" action="/operator/logout" className="console-signout">
          <AuthenticityTokenInput />
          <button type="submit" className="btn btn-small btn-outline">
            {t("sign_out")}
          </button>
        </Form>
      </header>
      <nav className="console-nav" aria-label={t("console")}>
        <ul role="list">
          {LINKS.map(([to, key]) => (
            <li key={to}>
              <NavLink to={to} end>
                {t(key)}
              </NavLink>
            </li>
          ))}
        </ul>
        <div className="console-nav-group" data-testid="console-nav-money">
          <span className="console-nav-title" id="console-nav-money">
            {t("nav_money_setup")}
          </span>
          <ul role="list" aria-labelledby="console-nav-money">
            {MONEY_LINKS.map(([to, key]) => (
              <li key={to}>
                <NavLink to={to}>{t(key)}</NavLink>
              </li>
            ))}
          </ul>
        </div>
      </nav>
      <div className="console-body">
        <Outlet />
      </div>
    </div>
  );
}

/**
 * A console page that failed: an action the operator's role may not take (403, with the upstream's
 * translated refusal), or any other failure, with the way back to the console.
 */
export function ErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation(["operator", "common"]);
  const forbidden =
    isRouteErrorResponse(error) && error.status === 403
      ? String((error.data as { forbidden?: string } | null)?.forbidden ?? "")
      : null;
  if (forbidden === null) console.error(error);
  return (
    <div className="console">
      <main className="screen error-screen" data-testid="console-error">
        <h1>{forbidden !== null ? t("operator:forbidden_title") : t("common:error.title")}</h1>
        <p data-testid={forbidden !== null ? "forbidden" : undefined}>
          {forbidden || t("common:error.text")}
        </p>
        <Link to="/operator" className="btn btn-primary">
          {t("operator:console")}
        </Link>
      </main>
    </div>
  );
}
