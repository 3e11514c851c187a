/**
 * Home: tabs as chips (links; an active category chip links back to all), the instrument list with
 * logo, code, price, change %, the day's sparkline (one shared SVG sprite) and the closed label.
 * Prices and changes move live (DAY_MARKET) when JavaScript runs. A signed-in user's rows carry a
 * star; once Favourites holds an instrument it is the first tab and the one `/` shows, and named
 * watchlists with instruments are tabs after "All".
 */
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "~/translation";
import { InstrumentList } from "~/components/InstrumentRow";
import { PageHeader } from "~/components/PageHeader";
import { Icon } from "~/components/Icon";
import { UnreadBadge } from "~/components/UnreadBadge";
import { useLive } from "~/live/useLive";
import { liveQuotes, type LiveQuote } from "~/upstream/views";
import { TOPIC } from "@contract/constants";

import type { loader } from "./home.server";

export { loader } from "./home.server";

const DAY_MARKET = [TOPIC.DAY_MARKET];

export const handle = { i18n: ["common"] };

export default function Home() {
  const { categories, tab, rows, sparkHref, lang, favouritesFirst, lists, star } =
    useLoaderData<typeof loader>();
  const signedIn = useRouteLoaderData<{ signedIn?: boolean }>("root")?.signedIn === true;
  const { t } = useTranslation("common");
  const [live, setLive] = useState<Record<string, LiveQuote>>({});

  // A new list from the server (category change, revalidation) replaces live overrides.
  useEffect(() => setLive({}), [rows]);

  const onMessage = useCallback((_topic: string, data: unknown) => {
    const quotes = liveQuotes(data);
    if (!quotes.length) return;
    setLive((prev) => {
      const next = { ...prev };
      for (const q of quotes) next[q.code] = q;
      return next;
    });
  }, []);
  useLive(DAY_MARKET, onMessage);

  // "All" is `/` until Favourites takes that place.
  const allHref = favouritesFirst ? "/?list=all" : "/";

  return (
    <div className="home">
      <PageHeader
        title={t("home.title")}
        actions={
          <>
            <Link to="/product" className="iconbtn" aria-label={t("home.search")}>
              <Icon name="search" />
            </Link>
            <Link to="/news" className="iconbtn" aria-label={t("home.news")}>
              <Icon name="news" />
            </Link>
            <Link to="/user" className="iconbtn" aria-label={t("home.account")}>
              <Icon name="user" />
              {signedIn ? <UnreadBadge initial={0} /> : null}
            </Link>
          </>
        }
      />
      <nav className="chips" aria-label={t("home.categories")}>
        {favouritesFirst ? (
          <Chip to="/" active={tab.kind === "favourites"}>
            {t("watch.favourites")}
          </Chip>
        ) : null}
        <Chip to={allHref} active={tab.kind === "all"}>
          {t("home.all")}
        </Chip>
        {lists.map((l) => (
          <Chip
            key={`l${l.id}`}
            to={`/?list=${l.id}`}
            active={tab.kind === "list" && tab.id === l.id}
          >
            {l.name}
          </Chip>
        ))}
        {categories.map((c) => {
          const active = tab.kind === "category" && c.id === tab.id;
          return (
            <Chip key={c.id} to={active ? allHref : `/?category=${c.id}`} active={active}>
              {c.name}
            </Chip>
          );
        })}
        {star ? (
          <Link to="/mine/watchlists" className="chip chip-edit" data-testid="edit-watchlists">
            {t("watch.edit")}
          </Link>
        ) : null}
      </nav>
      <div className="qhead" aria-hidden="true">
        <span>{t("home.col_name")}</span>
        <span>{t("home.col_price")}</span>
      </div>
      {rows.length === 0 ? (
        <p className="empty">{tab.kind === "list" ? t("watch.list_empty") : t("home.empty")}</p>
      ) : (
        <InstrumentList rows={rows} sparkHref={sparkHref} lang={lang} live={live} star={star} />
      )}
    </div>
  );
}

/** A tab of the home screen: a link, marked current when its list is shown. */
function Chip({ to, active, children }: { to: string; active: boolean; children: ReactNode }) {
  return (
    <Link
      to={to}
      className={active ? "chip active" : "chip"}
      aria-current={active ? "true" : undefined}
    >
      {children}
    </Link>
  );
}
