/**
 * Online support (login required): the support chat of basicSet's service_link, embedded in a frame
 * (with a link that opens it in a new tab, for sites that refuse to be framed) or, in link mode, a
 * prominent link that opens it; a translated message when no link is configured.
 */
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import type { LinksFunction } from "@remix-run/node";
import { PageHeader } from "~/components/PageHeader";
import accountStyles from "~/styles/account.css";
import type { loader } from "./chat.server";

export { loader } from "./chat.server";

export const handle = { i18n: ["common", "account"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];

export default function Chat() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("account");
  return (
    <div className="account">
      <PageHeader title={t("chat.title")} back="/mine" />
      {d.mode === "none" || !d.link ? (
        <p className="card notice account-notice" role="status" data-testid="chat-unavailable">
          {d.failed ?? t("chat.unavailable")}
        </p>
      ) : (
        <section className="card">
          {d.mode === "frame" ? (
            <iframe
              src={d.link}
              title={t("chat.frame_title")}
              className="chat-frame"
              data-testid="chat-frame"
              referrerPolicy="no-referrer"
              sandbox="allow-scripts allow-same-origin allow-forms allow-popups"
            />
          ) : (
            <p className="account-explain">{t("chat.link_explain")}</p>
          )}
          <a
            href={d.link}
            target="_blank"
            rel="noopener noreferrer"
            className={
              d.mode === "frame" ? "btn btn-block chat-open" : "btn btn-primary btn-block chat-open"
            }
            data-testid="chat-link"
          >
            {t("chat.open")}
          </a>
        </section>
      )}
    </div>
  );
}
