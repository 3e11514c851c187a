/**
 * Settings (/operator/settings): each setting of GET /admin/api/settings with what it governs and a
 * form to change it; the upstream checks the value for its key and its refusal is shown at that
 * setting with 400. Deposit channels, wire accounts and withdrawal currencies are not here.
 */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { useConsoleCan } from "~/utils/console";
import { FormErrors, Hidden, refusalMessages } from "~/components/Form";
import type { action, loader } from "./settings.server";

export { action, loader } from "./settings.server";

export const handle = { i18n: ["common", "auth", "operator"] };

export default function Settings() {
  const d = useLoaderData<typeof loader>();
  const may = useConsoleCan();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("operator");
  const refusedKey = actionData && "refusedKey" in actionData ? actionData.refusedKey : null;
  return (
    <section aria-labelledby="settings-title">
      <h1 id="settings-title">{t("settings_title")}</h1>
      {d.notice ? (
        <p className="card notice" role="status">
          {d.notice}
        </p>
      ) : null}
      <ul className="console-list console-grid" role="list" data-testid="settings">
        {d.settings.map((s) => {
          const id = `setting-${s.key.replace(/[^A-Za-z0-9_-]/g, "-")}`;
          return (
            <li key={s.key} className="card" data-testid="setting" data-key={s.key}>
              {may("admin") ? (
                <Form method="post" className="form console-setting">
                  <AuthenticityTokenInput />
                  <Hidden name="key" value={s.key} />
                  <FormErrors
                    errors={refusedKey === s.key ? refusalMessages(actionData) : undefined}
                  />
                  <div className="field">
                    <label htmlFor={id} className="mono">
                      {s.key}
                    </label>
                    <input
                      id={id}
                      name="value"
                      defaultValue={s.value ?? ""}
                      maxLength={500}
                      autoComplete="off"
                      aria-describedby={`${id}-describe`}
                    />
                    <p className="muted" id={`${id}-describe`}>
                      {s.describe}
                    </p>
                  </div>
                  <button type="submit" className="btn btn-small btn-primary">
                    {t("save")}
                  </button>
                </Form>
              ) : (
                <dl className="console-setting">
                  <dt className="mono">{s.key}</dt>
                  <dd data-testid="setting-value">{s.value ?? ""}</dd>
                  <dd className="muted">{s.describe}</dd>
                </dl>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
