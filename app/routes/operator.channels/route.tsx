/**
 * Deposit channels (/operator/channels): the coins users deposit, each with its network and the
 * address shown to them on /mine/charge; hidden ones (enabled 0) are kept but not offered.
 */
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { CatalogEditor, ENABLED_OPTIONS } from "~/components/CatalogEditor";
import type { action, loader } from "./channels.server";

export { action, loader } from "./channels.server";

export const handle = { i18n: ["common", "auth", "operator"] };

const FIELDS = [
  { name: "currency_code", label: "f_currency_code" },
  { name: "protocol_code", label: "f_protocol" },
  { name: "address", label: "f_address" },
  { name: "usd_price", label: "f_usd_price", inputMode: "decimal" as const },
  { name: "enabled", label: "f_enabled", options: ENABLED_OPTIONS, initial: "1" },
  { name: "sort", label: "f_sort", inputMode: "numeric" as const, initial: "0" },
];

export default function Channels() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("operator");
  return (
    <CatalogEditor
      kind="channel"
      need="admin"
      title={t("nav_channels")}
      notice={d.notice}
      entries={d.entries}
      fields={FIELDS}
      actionData={actionData}
      summary={(e) => `${e.currency_code} ${e.protocol_code}`}
    />
  );
}
