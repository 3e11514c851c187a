/**
 * News categories (/operator/news-categories): each can be renamed, ordered or hidden from readers
 * (published 0, its news with it); categories are never deleted. Renaming a seeded category
 * replaces its translated names with the operator's. Each change is audited.
 */
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { CatalogEditor } from "~/components/CatalogEditor";
import type { action, loader } from "./categories.server";

export { action, loader } from "./categories.server";

export const handle = { i18n: ["common", "auth", "operator", "content"] };

const FIELDS = [
  { name: "name", label: "content:f_name" },
  { name: "sort", label: "f_sort", inputMode: "numeric" as const, initial: "0" },
  {
    name: "published",
    label: "content:f_published",
    options: [
      { value: "1", label: "content:published_1" },
      { value: "0", label: "content:published_0" },
    ],
    initial: "1",
  },
];

export default function NewsCategories() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("content");
  // An unpublished category is shown as a hidden entry.
  return (
    <CatalogEditor
      kind="category"
      need="support"
      title={t("nav_news_categories")}
      notice={d.notice}
      entries={d.entries.map((e) => ({ ...e, enabled: e.published }))}
      fields={FIELDS}
      actionData={actionData}
      summary={(e) => e.name}
    />
  );
}
