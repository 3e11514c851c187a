/**
 * Providers (/operator/providers): every provider copiers may follow, a user or a strategy (with
 * its style), whether it is hidden or no longer active, its copiers and the money copying it. An
 * operator holding `support` hides one from copiers or shows it again, with a remark (existing
 * copies go on). Plain forms: the same without JavaScript.
 */
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { FormErrors } from "~/components/Form";
import { RemarkForm, useQueueRefusals, ConsoleList } from "~/components/Console";
import { useConsoleCan } from "~/utils/console";
import { formatMoney } from "~/utils/format";
import type { action, loader } from "./providers.server";

export { action, loader } from "./providers.server";

export const handle = { i18n: ["common", "auth", "operator"] };

export default function Providers() {
  const d = useLoaderData<typeof loader>();
  const may = useConsoleCan();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("operator");
  const { errorsFor, orphan } = useQueueRefusals(actionData, d.items);
  return (
    <section aria-labelledby="providers-title">
      <h1 id="providers-title">{t("providers_title")}</h1>
      <FormErrors errors={orphan} />
      <ConsoleList
        notice={d.notice}
        items={d.items}
        empty={t("providers_empty")}
        testId="providers"
      >
        {(p) => {
          const intent = p.hidden ? "show" : "hide";
          return (
            <li
              key={p.id}
              className="card console-item"
              data-testid="provider"
              data-id={p.id}
              data-hidden={p.hidden ? "1" : "0"}
              data-style={p.style}
            >
              <dl className="console-facts">
                <dt>{t("id")}</dt>
                <dd>#{p.id}</dd>
                <dt>{t("provider_name")}</dt>
                <dd>{p.name}</dd>
                <dt>{t("provider_style")}</dt>
                <dd>{t(`provider_style_${p.style}`, { defaultValue: p.style })}</dd>
                <dt>{t("provider_visibility")}</dt>
                <dd data-testid="provider-visibility">
                  {p.hidden ? t("hidden_mark") : t("provider_shown")}
                </dd>
                <dt>{t("provider_active")}</dt>
                <dd>{p.active ? t("provider_active_1") : t("provider_active_0")}</dd>
                <dt>{t("provider_copiers")}</dt>
                <dd>{p.copiers}</dd>
                <dt>{t("provider_copying")}</dt>
                <dd>{formatMoney(p.copying, d.lang)} USD</dd>
              </dl>
              {may("support") ? (
                <div className="console-actions">
                  <RemarkForm
                    intent={intent}
                    id={p.id}
                    button={t(`provider_${intent}`)}
                    errors={errorsFor(intent, p.id)}
                    danger={!p.hidden}
                  />
                </div>
              ) : null}
            </li>
          );
        }}
      </ConsoleList>
    </section>
  );
}
