/** Instrument search: GET /product?searchCurrency=EUR (trade_list searchCurrency). Works without JS. */
import { Form, useLoaderData, useNavigation } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { InstrumentRow } from "~/components/InstrumentRow";
import { PageHeader } from "~/components/PageHeader";
import { Icon } from "~/components/Icon";
import { useMessage } from "~/components/Form";

import type { loader } from "./product.server";

export { loader } from "./product.server";

export const handle = { i18n: ["common"] };

export default function Product() {
  const { q, rows, searched, lang, error } = useLoaderData<typeof loader>();
  const { t } = useTranslation("common");
  const msg = useMessage();
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location?.pathname === "/product";
  return (
    <div className="product">
      <PageHeader title={t("product.title")} back="/" />
      <Form method="get" className="searchbar" role="search">
        <label htmlFor="searchCurrency" className="sr-only">
          {t("product.label")}
        </label>
        <input
          id="searchCurrency"
          name="searchCurrency"
          type="search"
          defaultValue={q}
          placeholder={t("product.placeholder")}
          maxLength={32}
          autoComplete="off"
          enterKeyHint="search"
        />
        <button
          type="submit"
          className="btn btn-primary"
          aria-label={t("product.submit")}
          disabled={busy}
        >
          <Icon name="search" size={18} />
        </button>
      </Form>
      {error ? <p className="field-error">{msg(error)}</p> : null}
      {searched && rows.length === 0 ? <p className="empty">{t("product.none", { q })}</p> : null}
      {!searched ? <p className="hint">{t("product.hint")}</p> : null}
      {rows.length > 0 ? (
        <ul className="qlist">
          {rows.map(({ quote, points }) => (
            <InstrumentRow key={quote.id} q={quote} points={points} lang={lang} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}
