import { NavLink } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { Icon, type IconName } from "./Icon";

export interface Tab {
  key: "quotes" | "trade" | "order" | "documentary" | "ranking";
  to: string;
  icon: IconName;
}

/** The bottom tab bar of product-spec.md section 2, in its order. */
export const TABS: Tab[] = [
  { key: "quotes", to: "/", icon: "quotes" },
  { key: "trade", to: "/trade", icon: "trade" },
  { key: "order", to: "/order", icon: "order" },
  { key: "documentary", to: "/documentary", icon: "documentary" },
  { key: "ranking", to: "/rank", icon: "rank" },
];

/** Screens that show the footer (product-spec.md section 2). */
export const FOOTER_PATHS = ["/", "/trade", "/order", "/user", "/news", "/rank", "/documentary"];

/** Only tabs whose route exists in this build are shown: a screen not built yet is absent. */
export function TabBar({ routePaths }: { routePaths: string[] }) {
  const { t } = useTranslation("common");
  const tabs = TABS.filter((tab) => routePaths.includes(tab.to));
  if (tabs.length < 2) return null;
  return (
    <nav className="tabbar" aria-label={t("tabs.label")}>
      {tabs.map((tab) => (
        <NavLink
          key={tab.key}
          to={tab.to}
          end={tab.to === "/"}
          prefetch="intent"
          className={({ isActive }) => (isActive ? "tab active" : "tab")}
        >
          <Icon name={tab.icon} />
          <span>{t(`tabs.${tab.key}`)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
