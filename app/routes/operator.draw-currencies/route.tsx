/**
 * Withdrawal currencies (/operator/draw-currencies): what users withdraw to (a coin address or a
 * bank account, fixed once made), with the fee, the USD price and the bounds of one withdrawal.
 */
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "~/translation";
import { DRAW_FEE_TYPE, DRAW_TYPE } from "@contract/enums";
import { CatalogEditor, ENABLED_OPTIONS } from "~/components/CatalogEditor";
import type { action, loader } from "./draw-currencies.server";

export { action, loader } from "./draw-currencies.server";

export const handle = { i18n: ["common", "auth", "operator"] };

const choices = (values: Record<string, number>, prefix: string) =>
  Object.values(values).map((v) => ({ value: String(v), label: `${prefix}${v}` }));

const FIELDS = [
  {
    name: "type",
    label: "f_draw_type",
    options: choices(DRAW_TYPE, "draw_type_"),
    fixed: true,
    initial: String(DRAW_TYPE.ADDRESS),
  },
  { name: "code", label: "f_currency_code" },
  { name: "protocol", label: "f_protocol" },
  {
    name: "fee_type",
    label: "f_fee_type",
    options: choices(DRAW_FEE_TYPE, "fee_type_"),
    initial: String(DRAW_FEE_TYPE.FIXED),
  },
  { name: "draw_rate", label: "f_draw_rate", inputMode: "decimal" as const },
  { name: "usd_price", label: "f_units_per_usd", inputMode: "decimal" as const },
  { name: "min", label: "f_min", inputMode: "decimal" as const },
  { name: "max", label: "f_max", inputMode: "decimal" as const },
  { name: "enabled", label: "f_enabled", options: ENABLED_OPTIONS, initial: "1" },
  { name: "sort", label: "f_sort", inputMode: "numeric" as const, initial: "0" },
];

export default function DrawCurrencies() {
  const d = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const { t } = useTranslation("operator");
  return (
    <CatalogEditor
      kind="draw"
      need="admin"
      title={t("nav_draw_currencies")}
      notice={d.notice}
      entries={d.entries}
      fields={FIELDS}
      actionData={actionData}
      summary={(e) => `${e.code}${e.protocol ? ` ${e.protocol}` : ""}`}
    />
  );
}
