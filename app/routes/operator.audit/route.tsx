/**
 * The audit log (/operator/audit): every operator action, newest first, paged by links: who, what,
 * on what, the amount, the balance before and after, the remark, when. `?actor=` narrows it to
 * one operator's rows (a plain GET form).
 */
import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { PAGE_SIZE } from "@contract/constants";
import { Pager } from "~/components/Console";
import { auditLog } from "~/upstream/operator.server";
import { requireOperator } from "~/utils/operator-session.server";
import { pageParam } from "~/utils/console";
import { formatMoney } from "~/utils/format";
import { detectLang } from "~/i18n.server";

export const handle = { i18n: ["common", "auth", "operator"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const op = await requireOperator(request);
  const url = new URL(request.url);
  const page = pageParam(url);
  const actor = (url.searchParams.get("actor") ?? "").trim().slice(0, 40);
  const r = await auditLog({ request, op }, page, actor);
  const list = r.ok ? r.data : { data: [], total: 0 };
  return data(
    {
      lang: await detectLang(request),
      page,
      actor,
      pages: Math.max(1, Math.ceil(list.total / PAGE_SIZE)),
      rows: list.data,
      notice: r.ok ? null : r.msg,
    },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export default function Audit() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("operator");
  const money = (v: number | null) => (v === null ? "" : formatMoney(v, d.lang));
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{t("audit_title")}</h1>
      <Form method="get" className="card form console-search" role="search">
        <div className="field">
          <label htmlFor="audit-actor">{t("actor")}</label>
          <input
            id="audit-actor"
            name="actor"
            type="search"
            defaultValue={d.actor}
            maxLength={40}
          />
        </div>
        <button type="submit" className="btn btn-primary">
          {t("search")}
        </button>
      </Form>
      {d.notice ? (
        <p className="card notice" role="status">
          {d.notice}
        </p>
      ) : null}
      {d.rows.length === 0 ? (
        <p className="card empty">{t("audit_empty")}</p>
      ) : (
        <div
          className="card console-table-wrap"
          tabIndex={0}
          role="region"
          aria-label={t("audit_title")}
        >
          <table className="console-table" data-testid="audit">
            <thead>
              <tr>
                <th scope="col">{t("created_at")}</th>
                <th scope="col">{t("actor")}</th>
                <th scope="col">{t("action")}</th>
                <th scope="col">{t("target")}</th>
                <th scope="col">{t("amount")}</th>
                <th scope="col">{t("balance_before")}</th>
                <th scope="col">{t("balance_after_col")}</th>
                <th scope="col">{t("remark")}</th>
              </tr>
            </thead>
            <tbody>
              {d.rows.map((r) => (
                <tr key={r.id} data-testid="audit-row" data-action={r.action}>
                  <td>{r.created_at}</td>
                  <td>{r.actor}</td>
                  <td className="mono">{r.action}</td>
                  <td className="mono">{r.target}</td>
                  <td>{money(r.amount)}</td>
                  <td>{money(r.balance_before)}</td>
                  <td>{money(r.balance_after)}</td>
                  <td>{r.remark}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        page={d.page}
        pages={d.pages}
        query={d.actor ? new URLSearchParams({ actor: d.actor }).toString() : ""}
      />
    </section>
  );
}
