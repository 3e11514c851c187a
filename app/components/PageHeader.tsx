import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { useTranslation } from "~/translation";
import { Icon } from "./Icon";

/** The top bar of a screen: optional back link, title, optional actions on the end side. */
export function PageHeader({
  title,
  back,
  actions,
}: {
  title: string;
  back?: string;
  actions?: ReactNode;
}) {
  const { t } = useTranslation("common");
  return (
    <header className="pagehead">
      {back ? (
        <Link to={back} className="iconbtn back" aria-label={t("back")}>
          <Icon name="back" />
        </Link>
      ) : (
        <span className="iconbtn-spacer" />
      )}
      <h1>{title}</h1>
      <div className="pagehead-actions">{actions}</div>
    </header>
  );
}
