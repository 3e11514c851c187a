/** Language page: one submit button per language (POST sets the lng cookie); works without JS. */
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { LANGUAGES, LANGUAGE_LABEL, HTML_LANG, dirOf } from "~/i18n";
import { FormErrors } from "~/components/Form";
import { PageHeader } from "~/components/PageHeader";

import type { action, loader } from "./language.server";

export { action, loader } from "./language.server";

export const handle = { i18n: ["common"] };

export default function Language() {
  const { current, back } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("common");
  const navigation = useNavigation();
  const pending = navigation.formData?.get("lng");
  const errors = actionData?.result.error
    ? Object.values(actionData.result.error)
        .flat()
        .filter((e): e is string => Boolean(e))
    : undefined;
  return (
    <div className="language">
      <PageHeader title={t("language.title")} back={back || "/user"} />
      <Form method="post" className="card list-form">
        <AuthenticityTokenInput />
        {back ? <input type="hidden" name="redirect_to" value={back} /> : null}
        <FormErrors errors={errors} />
        <ul className="menu" role="list">
          {LANGUAGES.map((l) => (
            <li key={l}>
              <button
                type="submit"
                name="lng"
                value={l}
                className={l === current ? "menu-item active" : "menu-item"}
                aria-current={l === current ? "true" : undefined}
                lang={HTML_LANG[l]}
                dir={dirOf(l)}
                disabled={Boolean(pending)}
              >
                <span>{LANGUAGE_LABEL[l]}</span>
                {l === current ? (
                  <span className="check" aria-label={t("language.current")}>
                    ✓
                  </span>
                ) : null}
              </button>
            </li>
          ))}
        </ul>
      </Form>
    </div>
  );
}
