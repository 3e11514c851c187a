/**
 * Notifications (login required): what happened to the account, newest first and paged, the unread
 * ones marked; "mark all read" is a plain form. With JavaScript, a new notice (the NOTICE push's
 * unread count moving) loads the list again.
 */
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useCallback } from "react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useRevalidateAfterPosts } from "~/hooks/useRefreshAfterPosts";
import { useTranslation } from "~/translation";
import type { LinksFunction } from "@remix-run/node";
import { TOPIC } from "@contract/constants";
import type { NoticePush } from "@contract/ws";
import { FormErrors, refusalMessages } from "~/components/Form";
import { Icon } from "~/components/Icon";
import { PageHeader } from "~/components/PageHeader";
import { Pager } from "~/components/Pager";
import { useLive } from "~/live/useLive";
import { formatDateTime } from "~/utils/format";
import accountStyles from "~/styles/account.css";
import type { action, loader } from "./notifications.server";

export { action, loader } from "./notifications.server";

export const handle = { i18n: ["common", "notify"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];

const TOPICS = [TOPIC.NOTICE] as const;

export default function Notifications() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("notify");
  // Not under the form's post: its redirect brings the new list and the toast (see the hook).
  const revalidate = useRevalidateAfterPosts();
  const onPush = useCallback(
    (_topic: string, data: unknown) => {
      const unread = (data as NoticePush | null)?.unread;
      if (typeof unread === "number" && unread !== d.unread) revalidate();
    },
    [d.unread, revalidate],
  );
  useLive(TOPICS, onPush);
  return (
    <div className="account notices">
      <PageHeader
        title={t("title")}
        back="/user"
        actions={
          <Link
            to="/mine/notifications/settings"
            className="iconbtn"
            aria-label={t("settings_link")}
            data-testid="notice-settings"
          >
            <Icon name="settings" />
          </Link>
        }
      />
      {d.notice ? (
        <p className="card notice" role="status">
          {d.notice}
        </p>
      ) : null}
      <section className="card" aria-labelledby="notices-title">
        <h2 id="notices-title" className="account-section-title">
          <span data-testid="notices-unread">{t("unread", { count: d.unread })}</span>
        </h2>
        <FormErrors errors={refusalMessages(actionData)} />
        {d.unread > 0 ? (
          <Form method="post">
            <AuthenticityTokenInput />
            <button
              type="submit"
              name="intent"
              value="read_all"
              className="btn btn-outline btn-small"
            >
              {t("read_all")}
            </button>
          </Form>
        ) : null}
        {d.notices.length === 0 ? (
          <p className="empty" data-testid="notices-empty">
            {t("empty")}
          </p>
        ) : (
          <ul className="notice-list">
            {d.notices.map((n) => (
              <li
                key={n.id}
                className={n.read ? "notice-item" : "notice-item unread"}
                data-testid="notice"
                data-kind={n.kind}
                data-read={n.read ? "1" : "0"}
              >
                <p className="notice-title">
                  {n.read ? null : <span className="badge">{t("new")}</span>} {n.title}
                </p>
                <p className="account-explain">{n.body}</p>
                <time className="muted">{formatDateTime(n.created_at, d.lang)}</time>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Pager
        page={d.page}
        pages={d.pages}
        href={(p) => `/mine/notifications?page=${p}`}
        labels={{
          nav: t("pages"),
          prev: t("newer"),
          next: t("older"),
          pageOf: t("page_of", { page: d.page, pages: d.pages }),
        }}
        testId="notices-page"
      />
    </div>
  );
}
