/**
 * Companies (/operator/companies): the service providers of company mode (/product with is_main
 * on). Each can be changed, hidden from the search (enabled 0) or closed (status not 0, with the
 * loss_url its visitors are sent to); companies are never deleted. Each change is audited.
 */
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { CatalogEditor, ENABLED_OPTIONS } from "~/components/CatalogEditor";
import type { action, loader } from "./companies.server";

export { action, loader } from "./companies.server";

export const handle = { i18n: ["common", "auth", "operator", "company"] };

const FIELDS = [
  { name: "name", label: "company:f_name" },
  { name: "logo", label: "company:f_logo" },
  { name: "url", label: "company:website" },
  { name: "subject", label: "company:f_subject" },
  { name: "registered_address", label: "company:registered_address" },
  { name: "location", label: "company:location" },
  { name: "email", label: "company:email" },
  { name: "status", label: "company:f_status", inputMode: "numeric" as const, initial: "0" },
  { name: "type", label: "company:f_type", inputMode: "numeric" as const, initial: "0" },
  { name: "loss_url", label: "company:f_loss_url" },
  { name: "enabled", label: "f_enabled", options: ENABLED_OPTIONS, initial: "1" },
  { name: "sort", label: "f_sort", inputMode: "numeric" as const, initial: "0" },
];

export default function Companies() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("company");
  return (
    <CatalogEditor
      kind="company"
      need="support"
      title={t("nav_companies")}
      notice={d.notice}
      entries={d.entries}
      fields={FIELDS}
      actionData={actionData}
      summary={(e) => (e.status ? `${e.name} · ${t("closed_mark")}` : e.name)}
    />
  );
}
