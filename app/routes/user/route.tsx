/**
 * User centre (login required): the card with e-mail or the demo label, uid and balance with a hide
 * toggle (a POST form that flips a cookie, so it works without JS), then the centre's entries whose
 * screens exist in this build.
 */
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { formatMoney } from "~/utils/format";
import { PageHeader } from "~/components/PageHeader";
import { UnreadBadge } from "~/components/UnreadBadge";
import { Icon } from "~/components/Icon";
import { FormErrors, refusalMessages } from "~/components/Form";
import type { action, loader } from "./user.server";

export { action, loader } from "./user.server";

export const handle = { i18n: ["common"] };

export default function User() {
  const d = useLoaderData<typeof loader>();
  const refusal = refusalMessages(useActionData<typeof action>());
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
      <FormErrors errors={refusal} />
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
          <button
            type="submit"
            className="iconbtn light"
            aria-label={d.hide ? t("user.show_balance") : t("user.hide_balance")}
            aria-pressed={d.hide}
          >
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
                {e.key === "notifications" ? <UnreadBadge initial={d.unread} /> : null}
                <Icon name="chevron" size={18} className="flip-rtl" />
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
