/** System settings (login required): language and sign-out (a POST form, intent=logout). */
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { PageHeader } from "~/components/PageHeader";
import { Icon } from "~/components/Icon";
import { FormErrors, refusalMessages } from "~/components/Form";
import type { action, loader } from "./system.server";

export { action, loader } from "./system.server";

export const handle = { i18n: ["common"] };

export default function System() {
  const { language } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("common");
  return (
    <div className="system">
      <PageHeader title={t("system.title")} back="/user" />
      <ul className="menu card" role="list">
        <li>
          <Link to="/language?redirect_to=/mine/system" className="menu-item">
            <span>{t("system.language")}</span>
            <span className="menu-value">
              {language} <Icon name="chevron" size={18} className="flip-rtl" />
            </span>
          </Link>
        </li>
      </ul>
      <Form method="post" className="logout-form">
        <AuthenticityTokenInput />
        <FormErrors errors={refusalMessages(actionData)} />
        <input type="hidden" name="intent" value="logout" />
        <button type="submit" className="btn btn-danger btn-block">
          {t("system.logout")}
        </button>
      </Form>
    </div>
  );
}
