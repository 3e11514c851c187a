/**
 * Decimal comma: people in de, fr, ru, es, pt, it, tr, id ... type "0,05" for 0.05 (and phone
 * keyboards for inputMode="decimal" offer only the comma there). The order form's text number fields
 * accept it: one comma between digits becomes a dot before validation. Pure.
 */
const DECIMAL_FIELDS = ["cont", "target_price", "target_profit_price", "stop_loss_price"] as const;

const COMMA_DECIMAL_RE = /^\s*-?\d*,\d+\s*$/;

/** "0,05" -> "0.05"; anything else unchanged. */
export function dotDecimal(value: string): string {
  return COMMA_DECIMAL_RE.test(value) ? value.replace(",", ".") : value;
}

/** A copy of the form data with the decimal fields' commas turned into dots. */
export function withDotDecimals(formData: FormData): FormData {
  const out = new FormData();
  for (const [k, v] of formData.entries()) {
    out.append(
      k,
      typeof v === "string" && (DECIMAL_FIELDS as readonly string[]).includes(k)
        ? dotDecimal(v)
        : v,
    );
  }
  return out;
}
