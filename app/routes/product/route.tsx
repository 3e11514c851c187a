/**
 * /product. Outside company mode: the instrument search (GET /product?searchCurrency=EUR,
 * trade_list searchCurrency). In company mode (setting is_main): the company search (GET
 * /product?name=...) with each company's details, its contact e-mail and website, and a "direct
 * access" button that chooses it (POST). Both work without JS.
 */
import type { LinksFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import { InstrumentList } from "~/components/InstrumentRow";
import { PageHeader } from "~/components/PageHeader";
import { Icon } from "~/components/Icon";
import { FormErrors, Hidden, refusalMessages, useMessage } from "~/components/Form";
import type { Company } from "@contract/api/company";
import { COMPANY_SEARCH_MAX } from "@contract/api/company-rules";
import companyStyles from "~/styles/company.css";

import type { action, loader } from "./product.server";

export { action, loader } from "./product.server";

export const handle = { i18n: ["common", "company"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: companyStyles }];

/** A logo path of the upstream (/static/logos/x.svg) as the web serves it (/media/logos/x.svg). */
function logoSrc(logo: string): string | null {
  const m = /^\/static\/logos\/([A-Za-z0-9_-]{1,80}\.svg)$/.exec(logo);
  if (m) return `/media/logos/${m[1]}`;
  return /^https:\/\//i.test(logo) ? logo : null;
}

function CompanyCard({ c }: { c: Company }) {
  const { t } = useTranslation("company");
  const logo = logoSrc(c.logo);
  return (
    <li className="card company" data-testid="company" data-id={c.id}>
      <div className="company-head">
        {logo ? <img src={logo} alt="" width={48} height={48} className="company-logo" /> : null}
        <h2 className="company-name">{c.name}</h2>
      </div>
      {c.subject ? <p className="company-subject">{c.subject}</p> : null}
      <dl className="company-details">
        {c.registered_address ? (
          <>
            <dt>{t("registered_address")}</dt>
            <dd>{c.registered_address}</dd>
          </>
        ) : null}
        {c.location ? (
          <>
            <dt>{t("location")}</dt>
            <dd>{c.location}</dd>
          </>
        ) : null}
        {c.email ? (
          <>
            <dt>{t("email")}</dt>
            <dd>
              <a href={`mailto:${c.email}`}>{c.email}</a>
            </dd>
          </>
        ) : null}
        {c.url ? (
          <>
            <dt>{t("website")}</dt>
            <dd>
              <a href={c.url} rel="noopener noreferrer nofollow" target="_blank">
                {c.url.replace(/^https?:\/\//i, "")}
              </a>
            </dd>
          </>
        ) : null}
      </dl>
      <Form method="post" className="company-choose">
        <AuthenticityTokenInput />
        <Hidden name="intent" value="choose" />
        <Hidden name="id" value={c.id} />
        <button type="submit" className="btn btn-primary btn-block">
          {t("direct_access")}
          <span className="sr-only"> {c.name}</span>
        </button>
      </Form>
    </li>
  );
}

function CompanySearch() {
  const d = useLoaderData<typeof loader>();
  const { t } = useTranslation("company");
  const msg = useMessage();
  const refusal = refusalMessages(useActionData<typeof action>());
  return (
    <div className="product company-search">
      <PageHeader title={t("title")} back="/" />
      <Form method="get" className="searchbar" role="search">
        <label htmlFor="company-name" className="sr-only">
          {t("search_label")}
        </label>
        <input
          id="company-name"
          name="name"
          type="search"
          defaultValue={d.q}
          placeholder={t("search_placeholder")}
          maxLength={COMPANY_SEARCH_MAX}
          autoComplete="off"
          enterKeyHint="search"
        />
        <button type="submit" className="btn btn-primary" aria-label={t("search_submit")}>
          <Icon name="search" size={18} />
        </button>
      </Form>
      {d.error ? <p className="field-error">{msg(d.error)}</p> : null}
      <FormErrors errors={refusal} />
      {d.companies.length === 0 && !d.error ? (
        <p className="empty">{d.searched ? t("none", { q: d.q }) : t("none_listed")}</p>
      ) : null}
      {d.companies.length > 0 ? (
        <ul className="company-list" role="list" data-testid="companies">
          {d.companies.map((c) => (
            <CompanyCard key={c.id} c={c} />
          ))}
        </ul>
      ) : null}
      {d.complaintEmail ? (
        <p className="hint company-complaint" data-testid="complaint-email">
          {t("complaint")} <a href={`mailto:${d.complaintEmail}`}>{d.complaintEmail}</a>
        </p>
      ) : null}
    </div>
  );
}

export default function Product() {
  const d = useLoaderData<typeof loader>();
  const { q, rows, sparkHref, searched, lang, error, star } = d;
  const { t } = useTranslation("common");
  const msg = useMessage();
  const navigation = useNavigation();
  const busy = navigation.state === "loading" && navigation.location?.pathname === "/product";
  if (d.mode === "company") return <CompanySearch />;
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
        <InstrumentList rows={rows} sparkHref={sparkHref} lang={lang} star={star} />
      ) : null}
    </div>
  );
}
