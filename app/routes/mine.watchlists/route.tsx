/**
 * Watchlists (login required): Favourites (made by the first star of an instrument row, always
 * first) and up to WATCHLIST_MAX_LISTS lists in all, each of at most WATCHLIST_MAX_ITEMS
 * instruments. A new list by name; each named list renamed, removed and moved up or down; in
 * every list, instruments added from a picker, moved up or down and taken off. Plain forms that
 * work before JavaScript loads; with it, a change keeps the page where it was.
 */
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { getFormProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { useTranslation } from "~/translation";
import type { LinksFunction } from "@remix-run/node";
import {
  WATCHLIST_MAX_ITEMS,
  WATCHLIST_MAX_LISTS,
  WATCHLIST_NAME_MAX,
} from "@contract/api/watchlists-rules";
import { listCreateSchema } from "~/schemas/watchlists";
import { Field, FormErrors, refusalMessages, usePostIntent } from "~/components/Form";
import { Hidden } from "~/components/Hidden";
import { PageHeader } from "~/components/PageHeader";
import { formatPrice } from "~/utils/format";
import accountStyles from "~/styles/account.css";
import type { action, loader } from "./watchlists.server";

export { action, loader } from "./watchlists.server";

export const handle = { i18n: ["common", "auth", "watchlists"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: accountStyles }];

type Data = ReturnType<typeof useLoaderData<typeof loader>>;
type List = Data["lists"][number];

export default function Watchlists() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("watchlists");
  const { busy, busyIntent } = usePostIntent();
  const refusedIntent =
    actionData && "refusedIntent" in actionData ? actionData.refusedIntent : undefined;
  const refusedList =
    actionData && "refusedList" in actionData ? (actionData.refusedList ?? null) : null;
  const [form, fields] = useForm({
    id: "watchlist-create",
    lastResult: refusedIntent === "create" && actionData ? actionData.result : undefined,
    constraint: getZodConstraint(listCreateSchema),
    shouldValidate: "onSubmit",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: listCreateSchema }),
  });
  // A refusal about one list is shown on its card; any other (a star's, say) at the top.
  const refusal = refusedIntent && refusedIntent !== "create" ? refusalMessages(actionData) : null;
  const onCard = refusedList !== null && d.lists.some((l) => l.id === refusedList);
  const full = d.lists.length >= WATCHLIST_MAX_LISTS;
  const named = d.lists.filter((l) => l.kind === "custom");
  return (
    <div className="account watchlists">
      <PageHeader title={t("title")} back="/user" />
      {refusal && !onCard ? <FormErrors errors={refusal} /> : null}
      <section className="card" aria-labelledby="watchlist-new">
        <h2 id="watchlist-new" className="account-section-title">
          {t("new")}
        </h2>
        <p className="account-explain">
          {t("explain", { lists: WATCHLIST_MAX_LISTS, items: WATCHLIST_MAX_ITEMS })}
        </p>
        <Form method="post" {...getFormProps(form)} noValidate className="form">
          <AuthenticityTokenInput />
          <FormErrors errors={form.errors} id={form.errorId} />
          <Field
            meta={fields.name}
            label={t("name")}
            maxLength={WATCHLIST_NAME_MAX}
            autoComplete="off"
          />
          <button
            type="submit"
            name="intent"
            value="create"
            className="btn btn-primary btn-block"
            disabled={busy || full}
          >
            {busyIntent === "create" ? t("saving") : t("create")}
          </button>
          {full ? <p className="hint">{t("full", { count: WATCHLIST_MAX_LISTS })}</p> : null}
        </Form>
      </section>
      {d.lists.length === 0 ? <p className="card empty">{t("none")}</p> : null}
      {d.lists.map((l) => (
        <ListCard
          key={l.id}
          l={l}
          lang={d.lang}
          instruments={d.instruments}
          first={named[0]?.id === l.id}
          last={named[named.length - 1]?.id === l.id}
          refusal={onCard && refusedList === l.id ? refusal : null}
          busy={busy}
        />
      ))}
    </div>
  );
}

function ListCard({
  l,
  lang,
  instruments,
  first,
  last,
  refusal,
  busy,
}: {
  l: List;
  lang: string;
  instruments: Data["instruments"];
  /** First or last of the named lists (Favourites stays first and does not move). */
  first: boolean;
  last: boolean;
  refusal: string[] | null | undefined;
  busy: boolean;
}) {
  const { t } = useTranslation("watchlists");
  const { t: tc } = useTranslation("common");
  const named = l.kind === "custom";
  const name = named ? l.name : tc("watch.favourites");
  const titleId = `list-${l.id}-name`;
  const inList = new Set(l.items.map((i) => i.code));
  const addable = instruments.filter((i) => !inList.has(i.code));
  return (
    <section
      className="card watchlist"
      id={`list-${l.id}`}
      aria-labelledby={titleId}
      data-testid="watchlist"
      data-kind={l.kind}
    >
      <div className="watchlist-head">
        <h2 id={titleId} className="account-section-title">
          <bdi>{name}</bdi>
        </h2>
        <span className="watchlist-count">
          {t("count", { n: l.items.length, max: WATCHLIST_MAX_ITEMS })}
        </span>
        {named ? (
          <Form method="post" preventScrollReset className="watchlist-tools">
            <AuthenticityTokenInput />
            <Hidden name="id" value={l.id} />
            <button
              type="submit"
              name="intent"
              value="list_up"
              className="btn btn-outline btn-small"
              aria-label={t("list_up", { name })}
              disabled={busy || first}
            >
              ↑
            </button>
            <button
              type="submit"
              name="intent"
              value="list_down"
              className="btn btn-outline btn-small"
              aria-label={t("list_down", { name })}
              disabled={busy || last}
            >
              ↓
            </button>
          </Form>
        ) : null}
      </div>
      {refusal ? <FormErrors errors={refusal} /> : null}
      {l.items.length === 0 ? (
        <p className="empty">{named ? t("list_empty") : t("favourites_empty")}</p>
      ) : (
        <ol className="watchlist-items">
          {l.items.map((i, k) => (
            <li key={i.code} className="watchlist-item" data-testid="watch-item" data-code={i.code}>
              <a href={`/trade?code=${encodeURIComponent(i.code)}`} className="watchlist-name">
                <bdi>{i.name}</bdi>
              </a>
              <span className="watchlist-price">
                {i.price !== null ? formatPrice(i.price, i.precision, lang) : ""}
              </span>
              <Form method="post" preventScrollReset className="watchlist-tools">
                <AuthenticityTokenInput />
                <Hidden name="list_id" value={l.id} />
                <Hidden name="code" value={i.code} />
                <button
                  type="submit"
                  name="intent"
                  value="item_up"
                  className="btn btn-outline btn-small"
                  aria-label={t("item_up", { code: i.name })}
                  disabled={busy || k === 0}
                >
                  ↑
                </button>
                <button
                  type="submit"
                  name="intent"
                  value="item_down"
                  className="btn btn-outline btn-small"
                  aria-label={t("item_down", { code: i.name })}
                  disabled={busy || k === l.items.length - 1}
                >
                  ↓
                </button>
                <button
                  type="submit"
                  name="intent"
                  value="item_remove"
                  className="btn btn-outline btn-small"
                  aria-label={t("item_remove", { code: i.name, list: name })}
                  disabled={busy}
                >
                  {t("remove")}
                </button>
              </Form>
            </li>
          ))}
        </ol>
      )}
      {l.items.length < WATCHLIST_MAX_ITEMS && addable.length > 0 ? (
        <Form method="post" preventScrollReset className="watchlist-add">
          <AuthenticityTokenInput />
          <Hidden name="list_id" value={l.id} />
          <label htmlFor={`add-${l.id}`} className="sr-only">
            {t("add_label", { list: name })}
          </label>
          <select id={`add-${l.id}`} name="code">
            {addable.map((i) => (
              <option key={i.code} value={i.code}>
                {i.name}
              </option>
            ))}
          </select>
          <button
            type="submit"
            name="intent"
            value="item_add"
            className="btn btn-primary btn-small"
            aria-label={t("add_to", { list: name })}
            disabled={busy}
          >
            {t("add")}
          </button>
        </Form>
      ) : null}
      {named ? (
        <details className="watchlist-edit">
          <summary>{t("edit", { name })}</summary>
          <Form method="post" preventScrollReset className="watchlist-rename">
            <AuthenticityTokenInput />
            <Hidden name="id" value={l.id} />
            <label htmlFor={`rename-${l.id}`}>{t("new_name")}</label>
            <input
              id={`rename-${l.id}`}
              name="name"
              defaultValue={l.name}
              maxLength={WATCHLIST_NAME_MAX}
              autoComplete="off"
              required
            />
            <button
              type="submit"
              name="intent"
              value="rename"
              className="btn btn-outline btn-small"
              disabled={busy}
            >
              {t("rename")}
            </button>
          </Form>
          <Form method="post">
            <AuthenticityTokenInput />
            <Hidden name="id" value={l.id} />
            <button
              type="submit"
              name="intent"
              value="delete"
              className="btn btn-danger btn-small"
              disabled={busy}
            >
              {t("delete", { name })}
            </button>
          </Form>
        </details>
      ) : null}
    </section>
  );
}
