/**
 * Home: category chips (links; the active chip links back to all), the instrument list with logo,
 * code, price, change %, the day's sparkline (one shared SVG sprite) and the closed label. Prices and
 * changes move live (DAY_MARKET) when JavaScript runs.
 */
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
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
  const { categories, category, rows, sparkHref, lang } = useLoaderData<typeof loader>();
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
        <Link
          to="/"
          className={category === null ? "chip active" : "chip"}
          aria-current={category === null ? "true" : undefined}
        >
          {t("home.all")}
        </Link>
        {categories.map((c) => {
          const active = c.id === category;
          return (
            <Link
              key={c.id}
              to={active ? "/" : `/?category=${c.id}`}
              className={active ? "chip active" : "chip"}
              aria-current={active ? "true" : undefined}
            >
              {c.name}
            </Link>
          );
        })}
      </nav>
      <div className="qhead" aria-hidden="true">
        <span>{t("home.col_name")}</span>
        <span>{t("home.col_price")}</span>
      </div>
      {rows.length === 0 ? (
        <p className="empty">{t("home.empty")}</p>
      ) : (
        <InstrumentList rows={rows} sparkHref={sparkHref} lang={lang} live={live} />
      )}
    </div>
  );
}
