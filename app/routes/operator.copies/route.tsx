/**
 * Copies (/operator/copies): looked up by owner uid and/or provider and by status, paged, newest
 * first; each with its owner, provider, figures, stop-loss level, open positions, times and, once
 * ended, why and the operator's remark. While not stopped, an operator holding `money` stops it
 * with a remark its owner sees (positions closed at market, the money returned). Plain forms and
 * links: the same without JavaScript.
 */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { FormErrors } from "~/components/Form";
import { Pager, RemarkForm, useQueueRefusals, ConsoleList } from "~/components/Console";
import { COPY_STATUS_FILTER, useConsoleCan } from "~/utils/console";
import { formatMoney, signOf } from "~/utils/format";
import type { action, loader } from "./copies.server";

export { action, loader } from "./copies.server";

export const handle = { i18n: ["common", "auth", "operator"] };

export default function Copies() {
  const d = useLoaderData<typeof loader>();
  const may = useConsoleCan();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("operator");
  const { errorsFor, orphan } = useQueueRefusals(actionData, d.items);
  const query = new URLSearchParams({
    ...(d.uid ? { uid: d.uid } : {}),
    ...(d.providerId ? { provider_id: String(d.providerId) } : {}),
    status: String(d.status),
  }).toString();
  return (
    <section aria-labelledby="copies-title">
      <h1 id="copies-title">{t("copies_title")}</h1>
      <CopyFilter uid={d.uid} providerId={d.providerId} status={d.status} providers={d.providers} />
      <FormErrors errors={orphan} />
      <ConsoleList notice={d.notice} items={d.items} empty={t("copies_empty")} testId="copies">
        {(c) => (
          <li
            key={c.id}
            className="card console-item"
            data-testid="copy"
            data-id={c.id}
            data-status={c.status}
          >
            <dl className="console-facts">
              <dt>{t("id")}</dt>
              <dd>#{c.id}</dd>
              <dt>{t("copy_owner")}</dt>
              <dd className="mono">{c.uid}</dd>
              <dt>{t("copy_provider")}</dt>
              <dd>
                {c.provider_name} <span className="muted">#{c.provider_id}</span>
              </dd>
              <dt>{t("copy_status")}</dt>
              <dd data-testid="copy-status">{t(`copy_status_${c.status}`)}</dd>
              <dt>{t("copy_invested")}</dt>
              <dd>{formatMoney(c.invested, d.lang)} USD</dd>
              <dt>{t("equity")}</dt>
              <dd>{formatMoney(c.equity, d.lang)} USD</dd>
              <dt>{t("copy_profit")}</dt>
              <dd className={signOf(c.profit)}>{formatMoney(c.profit, d.lang)} USD</dd>
              <dt>{t("copy_stop_loss_level")}</dt>
              <dd>
                {formatMoney(c.stop_loss_level, d.lang)} USD{" "}
                <span className="muted">({t("copy_stop_loss_pct", { pct: c.stop_loss_pct })})</span>
              </dd>
              <dt>{t("copy_open_positions")}</dt>
              <dd>{c.open_positions}</dd>
              <dt>{t("created_at")}</dt>
              <dd>{c.created_at} UTC</dd>
              {c.stopped_at ? (
                <>
                  <dt>{t("copy_stopped_at")}</dt>
                  <dd>{c.stopped_at} UTC</dd>
                </>
              ) : null}
              {c.stop_reason ? (
                <>
                  <dt>{t("copy_stop_reason")}</dt>
                  <dd data-testid="copy-stop-reason" data-reason={c.stop_reason}>
                    {t(`copy_stop_reason_${c.stop_reason}`)}
                  </dd>
                </>
              ) : null}
              {c.stop_remark ? (
                <>
                  <dt>{t("remark")}</dt>
                  <dd data-testid="copy-remark">{c.stop_remark}</dd>
                </>
              ) : null}
            </dl>
            {c.status !== "stopped" && may("money") ? (
              <div className="console-actions">
                <RemarkForm
                  intent="stop"
                  id={c.id}
                  button={t("copy_stop")}
                  errors={errorsFor("stop", c.id)}
                  danger
                />
              </div>
            ) : null}
          </li>
        )}
      </ConsoleList>
      <Pager page={d.page} pages={d.pages} query={query} />
    </section>
  );
}

/** The look-up: owner uid, provider and status (a GET form: the filter is in the address). */
function CopyFilter(p: {
  uid: string;
  providerId: number | null;
  status: number;
  providers: { id: number; name: string }[];
}) {
  const { t } = useTranslation("operator");
  return (
    <Form method="get" className="card form console-search" role="search">
      <div className="field">
        <label htmlFor="copies-uid">{t("copy_owner")}</label>
        <input id="copies-uid" name="uid" type="search" defaultValue={p.uid} maxLength={64} />
      </div>
      <div className="field">
        <label htmlFor="copies-provider">{t("copy_provider")}</label>
        <select id="copies-provider" name="provider_id" defaultValue={p.providerId ?? ""}>
          <option value="">{t("copy_provider_all")}</option>
          {p.providers.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name} (#{o.id})
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="copies-status">{t("copy_status")}</label>
        <select id="copies-status" name="status" defaultValue={p.status}>
          {COPY_STATUS_FILTER.map(([s, key]) => (
            <option key={s} value={s}>
              {t(key)}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="btn btn-primary">
        {t("search")}
      </button>
    </Form>
  );
}
