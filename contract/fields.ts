/**
 * The rules of a request's number fields, written once for both programs: the upstream's request
 * schemas (contract/api/*) validate every call with them, and the web's form schemas (app/schemas)
 * are built from them, so the two sides can never disagree on a bound or a number of decimals.
 *
 * A number field arrives as a form's text or as a JSON number; either way it must be a plain
 * decimal: digits, optionally a point and more digits. No sign, no exponent ("1e5", a JSON 1e21),
 * no separators, and no more whole digits or decimals than its rule allows: a value beyond them is
 * the field's refusal (HTTP 400 with the field's message), never an error further in.
 */
import { z } from "zod";
import { PRECISION } from "./constants";

/** How many whole digits and decimals a decimal field takes. */
export interface DecimalRule {
  readonly intDigits: number;
  readonly places: number;
}

/** Lots of an order: at most 6 whole digits (the engine's max-lots rule refuses far below). */
export const LOTS_RULE: DecimalRule = { intDigits: 6, places: 8 };
/** A price (a pending order's target, a take-profit, a stop-loss): below 10^12, 10 decimals. */
export const PRICE_RULE: DecimalRule = { intDigits: 12, places: 10 };
/** An amount of USD an operator enters or the catalogue holds: exact to the micro-dollar. */
export const USD_RULE: DecimalRule = { intDigits: 10, places: 6 };
/** A coin's price in USD in the catalogue: small coins need many decimals. */
export const COIN_PRICE_RULE: DecimalRule = { intDigits: 12, places: 12 };
/** A withdrawal currency's fee rate (0.01 is 1 %). */
export const RATE_RULE: DecimalRule = { intDigits: 6, places: 8 };
/** An amount of USD a user enters (a deposit, a withdrawal): to the cent, as balances show. */
export const AMOUNT_RULE: DecimalRule = { intDigits: 10, places: PRECISION.balance };

/**
 * The largest money amount any field takes, USD (a deposit, a withdrawal, an adjustment, a bound or
 * price in the catalogue or the settings): far beyond any real one, and well inside what integer
 * micro-USD hold exactly (2^53 micro-USD is about 9 * 10^9 USD).
 */
export const MAX_MONEY_USD = 1_000_000_000;

/** Whole digits of an id (a row id, an instrument, a channel). */
export const ID_DIGITS = 12;
/** Whole digits of a leverage. */
export const LEVERAGE_DIGITS = 6;
/** The last page number any list takes. */
export const PAGE_MAX = 1_000_000;

/** The pattern of a plain decimal under `rule`: "12", "12.5", ".5" (not "12."). */
export function decimalPattern(rule: DecimalRule): RegExp {
  return new RegExp(
    `^(\\d{1,${rule.intDigits}}(\\.\\d{1,${rule.places}})?|\\.\\d{1,${rule.places}})$`,
  );
}

/** True when `text` is a plain decimal under `rule`. */
export function isPlainDecimal(text: string, rule: DecimalRule): boolean {
  return decimalPattern(rule).test(text);
}

/**
 * A field's value as text: a JSON number by its shortest round-trip text (so 1e21 stays
 * exponent-shaped and is refused), a text trimmed; anything else is left for the schema to refuse.
 */
export function asText(v: unknown): unknown {
  if (typeof v === "number") return Number.isFinite(v) ? String(v) : "NaN";
  return typeof v === "string" ? v.trim() : v;
}

/**
 * True when a number (a form's field as a browser's schema reads it) is a plain decimal under
 * `rule` in its shortest text: the web's forms refuse what the upstream's schema would.
 */
export function numberFits(n: number, rule: DecimalRule): boolean {
  return Number.isFinite(n) && decimalPattern(rule).test(String(Math.abs(n)));
}

/** The bound a rule's whole digits set: every value of the field is below it. */
export const boundOf = (rule: DecimalRule): number => 10 ** rule.intDigits;

/** "" as absent: an optional field left empty in a form. */
const emptyAsAbsent = (v: unknown) => {
  const t = asText(v);
  return t === "" ? undefined : t;
};

/**
 * A decimal field: a plain decimal under `rule` (text or JSON number), answered as its canonical
 * text ("0.10" stays "0.10": exact, never a float). `message` is the refusal's message (the
 * upstream's schemas leave it to the route's field refusal; the web's forms give an i18n key).
 */
export function decimalField(rule: DecimalRule, message?: string) {
  return z.preprocess(
    asText,
    z.string({ message }).regex(decimalPattern(rule), message ? { message } : undefined),
  );
}

/** An optional decimal field: absent, null or empty is undefined. */
export function optionalDecimalField(rule: DecimalRule, message?: string) {
  return z.preprocess(
    emptyAsAbsent,
    z
      .string({ message })
      .regex(decimalPattern(rule), message ? { message } : undefined)
      .optional(),
  );
}

/** A whole number of at most `digits` digits (text or JSON number), as a number. */
export function wholeField(digits: number, message?: string) {
  return z.preprocess(
    asText,
    z
      .string({ message })
      .regex(new RegExp(`^\\d{1,${digits}}$`), message ? { message } : undefined)
      .transform(Number),
  );
}

/** An optional whole number: absent, null or empty is undefined. */
export function optionalWholeField(digits: number, message?: string) {
  return z.preprocess(
    emptyAsAbsent,
    z
      .string({ message })
      .regex(new RegExp(`^\\d{1,${digits}}$`), message ? { message } : undefined)
      .transform(Number)
      .optional(),
  );
}

/** One of a few whole numbers (an enum sent as its number), as that number. */
export function choiceField<const T extends readonly number[]>(choices: T, message?: string) {
  return wholeField(9, message).refine(
    (n): n is T[number] => (choices as readonly number[]).includes(n),
    message ? { message } : undefined,
  ) as unknown as z.ZodType<T[number], z.ZodTypeDef, unknown>;
}

/** An optional choice: absent, null or empty is `dflt`. */
export function optionalChoiceField<const T extends readonly number[]>(
  choices: T,
  dflt: T[number],
  message?: string,
) {
  return optionalWholeField(9, message)
    .refine(
      (n) => n === undefined || (choices as readonly number[]).includes(n),
      message ? { message } : undefined,
    )
    .transform((n) => (n ?? dflt) as T[number]);
}

/** A page number: 1 when absent, else 1 to PAGE_MAX. */
export function pageField(message?: string) {
  return optionalWholeField(7, message)
    .refine((n) => n === undefined || (n >= 1 && n <= PAGE_MAX), message ? { message } : undefined)
    .transform((n) => n ?? 1);
}

/**
 * An amount of USD: a plain decimal under `rule`, greater than 0 (else `notPositive`, when given)
 * and at most MAX_MONEY_USD; any other refusal is the field's own.
 */
export function usdAmountField(rule: DecimalRule, notPositive?: string) {
  const magnitude = decimalPattern(rule);
  return z.preprocess(
    asText,
    z
      .string()
      // A sign is read (so "-5" is told it must be above 0), nothing else beyond the rule.
      .refine((v) => magnitude.test(v.startsWith("-") ? v.slice(1) : v))
      .refine((v) => Number(v) > 0, notPositive ? { message: notPositive } : undefined)
      .refine((v) => !(Number(v) > MAX_MONEY_USD)),
  );
}

/** An optional amount of USD: absent, null or empty is undefined. */
export function optionalUsdAmountField(rule: DecimalRule, notPositive?: string) {
  return optionalDecimalField(rule)
    .refine(
      (v) => v === undefined || Number(v) > 0,
      notPositive ? { message: notPositive } : undefined,
    )
    .refine((v) => v === undefined || Number(v) <= MAX_MONEY_USD);
}

/** A signed amount of USD other than 0 ("-12.50" takes money away), at most MAX_MONEY_USD either way. */
export function signedUsdField(rule: DecimalRule) {
  const magnitude = decimalPattern(rule);
  return z.preprocess(
    asText,
    z
      .string()
      .refine((v) => magnitude.test(v.startsWith("-") ? v.slice(1) : v))
      .refine((v) => Number(v) !== 0 && Math.abs(Number(v)) <= MAX_MONEY_USD),
  );
}
