/**
 * Wire accounts (/operator/wire-accounts): the bank accounts users pay wire deposits into, shown on
 * /mine/charge?type=1; hidden ones (enabled 0) are kept but not offered.
 */
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { CatalogEditor, ENABLED_OPTIONS } from "~/components/CatalogEditor";
import type { action, loader } from "./wire-accounts.server";

export { action, loader } from "./wire-accounts.server";

export const handle = { i18n: ["common", "auth", "operator"] };

const FIELDS = [
  { name: "bank_coin", label: "f_bank_coin" },
  { name: "bank_name", label: "f_bank_name" },
  { name: "bank_address", label: "f_bank_address" },
  { name: "bank_swift", label: "f_bank_swift" },
  { name: "payee_name", label: "f_payee_name" },
  { name: "payee_account", label: "f_payee_account" },
  { name: "bank_remark", label: "f_bank_remark" },
  { name: "enabled", label: "f_enabled", options: ENABLED_OPTIONS, initial: "1" },
  { name: "sort", label: "f_sort", inputMode: "numeric" as const, initial: "0" },
];

export default function WireAccounts() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("operator");
  return (
    <CatalogEditor
      kind="wire"
      need="admin"
      title={t("nav_wire_accounts")}
      notice={d.notice}
      entries={d.entries}
      fields={FIELDS}
      actionData={actionData}
      summary={(e) => `${e.bank_name} (${e.bank_coin})`}
    />
  );
}
