/**
 * Invite friends (login required, real accounts): the invite code, the invite link as selectable
 * text with a copy button (JavaScript), the link's QR code (server-drawn SVG) and how many accounts
 * registered with the code.
 */
import { useState } from "react";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import type { LinksFunction } from "@remix-run/node";
import { PageHeader } from "~/components/PageHeader";
import { useHydrated } from "~/components/trade/hooks";
import { localeOf } from "~/utils/format";
import accountStyles from "~/styles/account.css";
import type { loader } from "./invite.server";

export { loader } from "./invite.server";

export const handle = { i18n: ["common", "account"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];

export default function Invite() {
  const d = useLoaderData<typeof loader>();
  const { t, i18n } = useTranslation("account");
  if (d.notice)
    return (
      <div className="account">
        <PageHeader title={t("invite.title")} back="/mine" />
        <p className="card notice account-notice" role="status" data-testid="account-notice">
          {d.notice}
        </p>
      </div>
    );
  return (
    <div className="account">
      <PageHeader title={t("invite.title")} back="/mine" />
      <section className="card">
        <p className="account-explain">{t("invite.explain")}</p>
        <div className="account-row">
          <p className="account-label">{t("invite.code")}</p>
          <p className="account-value invite-code" data-testid="invite-code">
            {d.code}
          </p>
        </div>
        <div className="account-row">
          <p className="account-label" id="invite-link-label">
            {t("invite.link")}
          </p>
          <div className="invite-link-row">
            <code className="invite-link" data-testid="invite-link" dir="ltr">
              {d.link}
            </code>
            <CopyButton text={d.link} />
          </div>
        </div>
        <div
          className="invite-qr"
          role="img"
          aria-label={t("invite.qr_alt")}
          data-testid="invite-qr"
          // The server's own SVG (qrcode): presentation attributes only, no script or style.
          dangerouslySetInnerHTML={{ __html: d.qr }}
        />
      </section>
      <section className="card">
        <p className="account-label">{t("invite.count")}</p>
        <p className="invite-count" data-testid="invite-count">
          {new Intl.NumberFormat(localeOf(i18n.language)).format(d.count)}
        </p>
      </section>
    </div>
  );
}

/** Copies the link (JavaScript only; without it the link stays selectable text). */
function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation("account");
  const hydrated = useHydrated();
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  if (!hydrated) return null;
  return (
    <button
      type="button"
      className="btn btn-small"
      data-testid="invite-copy"
      onClick={() => {
        const done = navigator.clipboard?.writeText(text);
        if (!done) return setState("failed");
        void done.then(
          () => setState("copied"),
          () => setState("failed"),
        );
      }}
    >
      <span aria-live="polite">
        {state === "copied"
          ? t("invite.copied")
          : state === "failed"
            ? t("invite.copy_failed")
            : t("invite.copy")}
      </span>
    </button>
  );
}
