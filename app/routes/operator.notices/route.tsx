/**
 * Announcements (/operator/notices): every announcement, drafts and every language included, and
 * its editor with a server-side preview. The policy notice (is_policy 1) is the one shown once to
 * new visitors. Each change is audited by the upstream.
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
import type { action, loader } from "./notices.server";

export { action, loader } from "./notices.server";

export const handle = { i18n: ["common", "auth", "operator", "content"] };

export const links: LinksFunction = () => [{ rel: "stylesheet", href: contentStyles }];

export default function NoticesEditor() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("content");
  const fields: EditorField[] = [
    { name: "title", label: t("f_title"), kind: "text", maxLength: 200 },
    { name: "content", label: t("f_content"), kind: "textarea", hint: t("content_hint") },
    { name: "lang", label: t("f_lang"), kind: "select", options: useLangOptions() },
    {
      name: "is_policy",
      label: t("f_is_policy"),
      kind: "select",
      initial: "0",
      options: [
        { value: "0", label: t("is_policy_0") },
        { value: "1", label: t("is_policy_1") },
      ],
    },
    {
      name: "published",
      label: t("f_published"),
      kind: "select",
      options: usePublishedOptions(),
      initial: "1",
    },
  ];
  return (
    <ContentEditor
      kind="notice"
      title={t("nav_notices")}
      path="/operator/notices"
      d={d}
      fields={fields}
      actionData={actionData}
      columns={[
        { label: t("f_title"), cell: (r) => r.title },
        { label: t("f_lang"), cell: (r) => langLabel(r.lang, t("lang_all")) },
        { label: t("f_is_policy"), cell: (r) => t(`is_policy_${r.is_policy}`) },
        { label: t("f_published"), cell: (r) => t(`published_${r.published}`) },
        { label: t("col_date"), cell: (r) => r.created_at },
      ]}
    />
  );
}
