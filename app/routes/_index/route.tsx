/**
 * Home: category chips (links; the active chip links back to all), the instrument list with logo,
 * code, price, change %, a server-rendered SVG sparkline and the closed label. Prices, changes and
 * sparklines move live (DAY_MARKET) when JavaScript runs.
 */
import { Link, useLoaderData } from "@remix-run/react";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { callerFor, failureToast } from "~/upstream/client.server";
import { abbreviatedCacheKline, getCategories, instrumentRows, tradeList } from "~/upstream/market.server";
import { InstrumentRow } from "~/components/InstrumentRow";
import { PageHeader } from "~/components/PageHeader";
import { Icon } from "~/components/Icon";
import { useLive } from "~/live/useLive";

export const handle = { i18n: ["common"] };

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await callerFor(request);
  const url = new URL(request.url);
  const categoryParam = url.searchParams.get("category");
  const category = categoryParam && /^\d{1,9}$/.test(categoryParam) ? Number(categoryParam) : null;
  const [cats, list, sparks] = await Promise.all([getCategories(caller), tradeList(caller), abbreviatedCacheKline(caller)]);
  const instruments = list.ok ? list.data : [];
  const rows = instrumentRows(
    instruments.filter((i) => category === null || i.CategoryId === category),
    sparks,
  );
  return {
    lang: caller.lang,
    category,
    categories: cats.ok ? cats.data : [],
    rows,
    toast: failureToast(cats, list, sparks),
  };
}

interface LiveQuote {
  Id: number;
  Code: string;
  Close: number;
  Change: number;
  MarketStatus: number;
}

export default function Home() {
  const { categories, category, rows, lang } = useLoaderData<typeof loader>();
  const { t } = useTranslation("common");
  const [live, setLive] = useState<Record<string, LiveQuote>>({});

  // A new list from the server (category change, revalidation) replaces live overrides.
  useEffect(() => setLive({}), [rows]);

  const onMessage = useCallback((_topic: string, data: unknown) => {
    if (!Array.isArray(data)) return;
    setLive((prev) => {
      const next = { ...prev };
      for (const item of data as LiveQuote[]) {
        if (item && typeof item.Code === "string" && Number.isFinite(item.Close)) next[item.Code] = item;
      }
      return next;
    });
  }, []);
  useLive(["DAY_MARKET"], onMessage);

  return (
    <div className="home">
      <PageHeader
        title={t("home.title")}
        actions={
          <>
            <Link to="/product" className="iconbtn" aria-label={t("home.search")}>
              <Icon name="search" />
            </Link>
            <Link to="/user" className="iconbtn" aria-label={t("home.account")}>
              <Icon name="user" />
            </Link>
          </>
        }
      />
      <nav className="chips" aria-label={t("home.categories")}>
        <Link to="/" className={category === null ? "chip active" : "chip"} aria-current={category === null ? "true" : undefined}>
          {t("home.all")}
        </Link>
        {categories.map((c) => {
          const active = c.Id === category;
          return (
            <Link
              key={c.Id}
              to={active ? "/" : `/?category=${c.Id}`}
              className={active ? "chip active" : "chip"}
              aria-current={active ? "true" : undefined}
            >
              {c.NameShowTrans}
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
        <ul className="qlist">
          {rows.map(({ quote, points }) => {
            const l = live[quote.Code];
            const q = l ? { ...quote, Close: l.Close, Change: l.Change, MarketStatus: l.MarketStatus ?? quote.MarketStatus } : quote;
            const pts = l && points.length > 0 ? [...points.slice(0, -1), l.Close] : points;
            return <InstrumentRow key={quote.Id} q={q} points={pts} lang={lang} />;
          })}
        </ul>
      )}
    </div>
  );
}
