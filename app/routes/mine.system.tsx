/** System settings (login required): language and sign-out (a POST form to /logout). */
import { Form, Link, useLoaderData } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "react-i18next";
import { requireSignedIn } from "~/session.server";
import { detectLang } from "~/i18n.server";
import { LANGUAGE_LABEL } from "~/i18n";
import { PageHeader } from "~/components/PageHeader";
import { Icon } from "~/components/Icon";

export const handle = { i18n: ["common"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireSignedIn(request);
  const lang = await detectLang(request);
  return { language: LANGUAGE_LABEL[lang], isDemo: Number(user.is_demo) === 1 };
}

export default function System() {
  const { language } = useLoaderData<typeof loader>();
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
      <Form method="post" action="/logout" className="logout-form">
        <AuthenticityTokenInput />
        <input type="hidden" name="intent" value="logout" />
        <button type="submit" className="btn btn-danger btn-block">
          {t("system.logout")}
        </button>
      </Form>
    </div>
  );
}
