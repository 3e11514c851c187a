import { Link } from "@remix-run/react";
import { useTranslation } from "~/translation";

/** E-mail / phone tabs as links (?type=email|mobile), keeping the other query parameters. */
export function AuthTabs({
  type,
  search,
  showMobile,
}: {
  type: "email" | "mobile";
  search: string;
  showMobile: boolean;
}) {
  const { t } = useTranslation("auth");
  if (!showMobile) return null;
  const href = (ty: string) => {
    const p = new URLSearchParams(search);
    p.set("type", ty);
    return `?${p.toString()}`;
  };
  return (
    <nav className="segmented" aria-label={t("identity_type")}>
      <Link
        to={href("email")}
        replace
        className={type === "email" ? "seg active" : "seg"}
        aria-current={type === "email" ? "page" : undefined}
      >
        {t("tab_email")}
      </Link>
      <Link
        to={href("mobile")}
        replace
        className={type === "mobile" ? "seg active" : "seg"}
        aria-current={type === "mobile" ? "page" : undefined}
      >
        {t("tab_mobile")}
      </Link>
    </nav>
  );
}

export function areaOptions(areas: { id: number; code: string; global_code: string }[]) {
  return areas.map((a) => ({
    value: String(a.id),
    label: `\u200E${a.global_code.startsWith("+") ? a.global_code : `+${a.global_code}`} ${a.code}`,
  }));
}
