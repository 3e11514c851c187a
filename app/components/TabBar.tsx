import { Link, useLocation } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { Icon, type IconName } from "./Icon";

interface Tab {
  key: "quotes" | "trade" | "order" | "documentary" | "ranking";
  to: string;
  icon: IconName;
}

/** The bottom tab bar of product-spec.md section 2, in its order. */
export const TABS: Tab[] = [
  { key: "quotes", to: "/", icon: "quotes" },
  { key: "trade", to: "/trade", icon: "trade" },
  { key: "order", to: "/order", icon: "order" },
  // Copy trading (documentary) and the ranking are two views of the same traders (decision 0010).
  { key: "documentary", to: "/rank?view=copy", icon: "documentary" },
  { key: "ranking", to: "/rank", icon: "rank" },
];

/** Screens that show the footer (product-spec.md section 2). */
export const FOOTER_PATHS = ["/", "/trade", "/order", "/user", "/news", "/rank"];

const pathOf = (to: string) => to.split("?")[0];

/** Whether a route path is one a tab opens. */
export function isTabPath(path: string): boolean {
  return TABS.some((tab) => pathOf(tab.to) === path);
}

/** Whether `tab` is the screen shown: its path, and for /rank the view its query names. */
export function isActiveTab(tab: Tab, pathname: string, search: string): boolean {
  const [path, query = ""] = tab.to.split("?");
  if (path === "/") return pathname === "/";
  if (pathname !== path && !pathname.startsWith(`${path}/`)) return false;
  const wanted = new URLSearchParams(query).get("view");
  return (new URLSearchParams(search).get("view") ?? null) === wanted;
}

/** Only tabs whose route exists in this build are shown: a screen not built yet is absent. */
export function TabBar({ routePaths }: { routePaths: string[] }) {
  const { t } = useTranslation("common");
  const { pathname, search } = useLocation();
  const tabs = TABS.filter((tab) => routePaths.includes(pathOf(tab.to)));
  if (tabs.length < 2) return null;
  return (
    <nav className="tabbar" aria-label={t("tabs.label")}>
      {tabs.map((tab) => (
        <Link
          key={tab.key}
          to={tab.to}
          prefetch="intent"
          className={isActiveTab(tab, pathname, search) ? "tab active" : "tab"}
          aria-current={isActiveTab(tab, pathname, search) ? "page" : undefined}
        >
          <Icon name={tab.icon} />
          <span>{t(`tabs.${tab.key}`)}</span>
        </Link>
      ))}
    </nav>
  );
}
