/**
 * /mine/copies (login required): each copy of the user with its amount in, value (equity), profit,
 * copy stop-loss level and status, a link to its page, and its actions (pause or resume, add or
 * remove funds, stop after a confirmation). With JavaScript the figures move with COPY_TRADE.
 */
import type { LinksFunction, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { PageHeader } from "~/components/PageHeader";
import { FormErrors, refusalMessages } from "~/components/Form";
import { CopyActions, CopyFigures } from "~/components/copy/CopyParts";
import { useLiveCopies } from "~/components/copy/useLiveCopies";
import { useRevalidateAfterPosts } from "~/hooks/useRefreshAfterPosts";
import { copyHref, providerHref } from "~/utils/copy-href";
import copyStyles from "~/styles/copy.css";
import tradeStyles from "~/styles/trade.css";
import type { action, loader } from "./copies.server";

export { action, loader } from "./copies.server";

export const handle = { i18n: ["common", "copy"] };

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: tradeStyles },
  { rel: "stylesheet", href: copyStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: d?.title ?? "Tradepost" },
];

export default function Copies() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("copy");
  // A copy's change while the page's own form posts waits for the post's redirect (see the hook).
  const revalidate = useRevalidateAfterPosts();
  const live = useLiveCopies(d.copies, revalidate);
  const orphan =
    actionData && !("copyId" in actionData && actionData.copyId)
      ? refusalMessages(actionData)
      : undefined;
  return (
    <div className="copies">
      <PageHeader title={d.title} back="/mine" />
      <FormErrors errors={orphan} />
      {d.notice ? (
        <p className="card notice" role="status" data-testid="copies-notice">
          {d.notice}
        </p>
      ) : d.copies.length === 0 ? (
        <div className="card empty" data-testid="copies-empty">
          <p>{t("copies.empty")}</p>
          <Link to="/rank?view=copy" className="btn btn-primary">
            {t("copies.find")}
          </Link>
        </div>
      ) : (
        <ul className="copy-list" role="list">
          {d.copies.map((base) => {
            const c = live[base.id] ?? base;
            return (
              <li
                key={c.id}
                className="card copy-item"
                data-testid="copy-item"
                data-copy-id={c.id}
                data-provider={c.provider_name}
              >
                <div className="copy-head">
                  <Link to={copyHref(c.id)} className="copy-name" data-testid="copy-link">
                    {t("copies.entry_label", { name: c.provider_name })}
                  </Link>
                  <Link to={providerHref(c.provider_id)} className="muted copy-provider-link">
                    {t("copies.provider_page")}
                  </Link>
                </div>
                <CopyFigures c={c} lang={d.lang} />
                <CopyActions c={c} keys={d.keys[c.id]} lang={d.lang} actionData={actionData} />
              </li>
            );
          })}
        </ul>
      )}
      <p className="copies-foot">
        <Link to="/rank?view=copy">{t("copies.find")}</Link>
      </p>
    </div>
  );
}
