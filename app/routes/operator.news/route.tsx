/**
 * News (/operator/news): every news item, drafts and every language included, and its editor with
 * a server-side preview of the sanitised article. Each change is audited by the upstream.
 */
import type { LinksFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import {
  ContentEditor,
  langLabel,
  useLangOptions,
  usePublishedOptions,
  type EditorField,
} from "~/components/ContentEditor";
import contentStyles from "~/styles/content.css";
import type { action, loader } from "./news.server";

export { action, loader } from "./news.server";

export const handle = { i18n: ["common", "auth", "operator", "content"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

export default function NewsEditor() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("content");
  const langs = useLangOptions();
  const published = usePublishedOptions();
  const categoryName = new Map(d.extra.categories.map((c) => [c.id, c.name]));
  const fields: EditorField[] = [
    {
      name: "category_id",
      label: t("f_category"),
      kind: "select",
      options: d.extra.categories.map((c) => ({ value: String(c.id), label: c.name })),
    },
    { name: "title", label: t("f_title"), kind: "text", maxLength: 200 },
    { name: "desc", label: t("f_desc"), kind: "text", maxLength: 500 },
    {
      name: "logo",
      label: t("f_logo"),
      kind: "select",
      options: [
        { value: "", label: t("logo_none") },
        ...d.extra.images.map((f) => ({ value: f, label: f })),
      ],
    },
    { name: "content", label: t("f_content"), kind: "textarea", hint: t("content_hint") },
    { name: "lang", label: t("f_lang"), kind: "select", options: langs },
    {
      name: "published",
      label: t("f_published"),
      kind: "select",
      options: published,
      initial: "1",
    },
  ];
  return (
    <ContentEditor
      kind="news"
      title={t("nav_news")}
      path="/operator/news"
      d={d}
      fields={fields}
      actionData={actionData}
      columns={[
        { label: t("f_title"), cell: (r) => r.title },
        { label: t("f_category"), cell: (r) => categoryName.get(r.category_id) ?? r.category_id },
        { label: t("f_lang"), cell: (r) => langLabel(r.lang, t("lang_all")) },
        { label: t("f_published"), cell: (r) => t(`published_${r.published}`) },
        { label: t("col_date"), cell: (r) => r.created_at },
      ]}
    />
  );
}
