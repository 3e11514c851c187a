/**
 * The verification queue (/operator/verifications): requests by status (waiting first), paged,
 * oldest first; each with the name, the whole id number, the user and both images side by side
 * (served by the console's image proxy) to a role that decides verifications (a viewer reads the
 * rest without them); while waiting, approve or reject with a remark the user sees. Plain forms and links; a refusal shows at the item with 400.
 */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { LinksFunction } from "@remix-run/node";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { useConsoleCan } from "~/utils/console";
import { REAL_NAME_REQUEST } from "@contract/api/verify-rules";
import { FormErrors, Hidden } from "~/components/Form";
import { Pager, RemarkForm, StatusTabs, useQueueRefusals, ConsoleList } from "~/components/Console";
import verifyStyles from "~/styles/verify.css";
import { VERIFY_TABS } from "~/utils/verify";
import type { action, loader } from "./verifications.server";

export { action, loader } from "./verifications.server";

export const handle = { i18n: ["common", "auth", "operator", "verify"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: verifyStyles }];

export default function Verifications() {
  const d = useLoaderData<typeof loader>();
  const may = useConsoleCan();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation(["verify", "operator"]);
  const { errorsFor, orphan } = useQueueRefusals(actionData, d.items);
  return (
    <section aria-labelledby="verifications-title">
      <h1 id="verifications-title">{t("verify:queue_title")}</h1>
      <StatusTabs tabs={VERIFY_TABS} current={d.status} label={t("verify:queue_title")} />
      <FormErrors errors={orphan} />
      <ConsoleList
        notice={d.notice}
        items={d.items}
        empty={t("operator:queue_empty")}
        testId="verifications"
      >
        {(r) => (
          <li key={r.id} className="card console-item" data-testid="verification" data-id={r.id}>
            <dl className="console-facts">
              <dt>{t("operator:id")}</dt>
              <dd>#{r.id}</dd>
              <dt>{t("operator:user")}</dt>
              <dd>
                <span className="mono">{r.user.uid}</span> {r.user.email ?? r.user.mobile ?? ""}
              </dd>
              <dt>{t("verify:name")}</dt>
              <dd data-testid="verification-name">{r.name}</dd>
              <dt>{t("verify:card_id")}</dt>
              <dd className="mono" data-testid="verification-card">
                {r.card_id}
              </dd>
              <dt>{t("operator:created_at")}</dt>
              <dd>{r.created_at} UTC</dd>
              {r.remark ? (
                <>
                  <dt>{t("operator:remark")}</dt>
                  <dd data-testid="verification-remark">{r.remark}</dd>
                </>
              ) : null}
              {r.decided_by ? (
                <>
                  <dt>{t("operator:decided_by")}</dt>
                  <dd>
                    {r.decided_by} {r.decided_at} UTC
                  </dd>
                </>
              ) : null}
            </dl>
            {may("support") ? (
              <div className="verify-pics">
                {(
                  [
                    [r.front, t("verify:front"), "front"],
                    [r.back, t("verify:back"), "back"],
                  ] as const
                ).map(([src, label, side]) => (
                  <figure key={side}>
                    <figcaption>{label}</figcaption>
                    <a href={src} target="_blank" rel="noreferrer">
                      <img
                        src={src}
                        alt={t("verify:image_alt", { side: label, id: r.id })}
                        loading="lazy"
                        data-testid={`verification-${side}`}
                      />
                    </a>
                  </figure>
                ))}
              </div>
            ) : (
              <p className="muted" data-testid="verification-pics-hidden">
                {t("verify:pics_for_support")}
              </p>
            )}
            {r.status === REAL_NAME_REQUEST.WAITING && may("support") ? (
              <div className="console-actions">
                <Form method="post" className="form console-action" data-testid="approve-form">
                  <AuthenticityTokenInput />
                  <Hidden name="intent" value="approve" />
                  <Hidden name="id" value={r.id} />
                  <FormErrors errors={errorsFor("approve", r.id)} />
                  <button type="submit" className="btn btn-primary">
                    {t("verify:approve")}
                  </button>
                </Form>
                <RemarkForm
                  intent="reject"
                  id={r.id}
                  button={t("verify:reject")}
                  errors={errorsFor("reject", r.id)}
                  danger
                />
              </div>
            ) : null}
          </li>
        )}
      </ConsoleList>
      <Pager page={d.page} pages={d.pages} query={`status=${d.status}`} />
    </section>
  );
}
