/**
 * The money catalogue operators keep (upstream/API.md "Operators"): coin deposit channels, bank
 * accounts for wire deposits and withdrawal currencies. Each catalogue is described once (its table,
 * its fields with their readers, the checks of a whole entry); listing, adding and changing are the
 * same code for all three. The money catalogue's fields arrive as their endpoints' schemas read
 * them (contract/api/admin.ts: codes as capitals, trimmed text, decimals, flags); its readers only
 * place them in their columns. The readers of raw values (textField, oneOf, enabled, sort) serve
 * catalogues whose fields no schema reads.
 *
 * Invariants:
 * - entries are never deleted, since deposits and withdrawals point at them; `enabled` 0 hides one;
 * - an entry is checked as a whole after every change (an update of one field cannot leave a
 *   channel whose address no longer fits its network);
 * - every change writes its audit row (fields before and after) in the same transaction.
 */
import { DRAW_FEE_TYPE, DRAW_TYPE } from "@contract/enums";
import type * as api from "@contract/api/admin";
import type { DB } from "../../platform/db.js";
import { CODE, CODE_FAIL, DomainError } from "../../platform/errors.js";
import { Dec, MICRO, usdToMicro } from "../money/decimal.js";
import { validAddress } from "../money/addresses.js";
import { writeAudit } from "./audit.js";
import {
  catalogRowById,
  catalogRows,
  insertCatalogRow,
  isUniqueViolation,
  updateCatalogRow,
  type CatalogRow as Row,
  type CatalogValue as Value,
} from "./catalog-store.js";

const INVALID = "money_invalid_field";

export const invalid = (field: string) => new DomainError(INVALID, CODE_FAIL, { field });

export interface Field {
  /** Name on the wire (the form field and the view's key) and column in the table. */
  name: string;
  /** Reads a posted value; throws the field's refusal. */
  read: (raw: unknown) => Value;
  /** Taken when adding without the field; a field without one is required. */
  dflt?: Value;
  /** Set when the entry is added and never changed. */
  fixed?: boolean;
  /** The column when it differs from the name (amounts in micro-USD). */
  column?: string;
}

/** A field its endpoint's schema has read: kept as that schema answers it. */
const checked = (name: string, extra: Partial<Field> = {}): Field => ({
  name,
  read: (v) => v as Value,
  ...extra,
});

/** An exact decimal its schema has read, kept as its text ("0.10" as "0.1"). */
const decimalText = (name: string): Field => ({
  name,
  read: (v) => new Dec(String(v)).toFixed(),
});

/** A USD amount its schema has read (above 0, at most MAX_MONEY_USD), kept in `column` as micro-USD. */
const usdMicro = (name: string, column: string): Field => ({
  name,
  column,
  read: (v) => usdToMicro(String(v)),
});

/** The money catalogue's flag and place, read by their schemas; a new entry's defaults. */
const shown = checked("enabled", { dflt: 1 });
const place = checked("sort", { dflt: 0 });

export interface Catalog<V> {
  table: string;
  /** Names the entry in audit rows ("charge_channel:3"). */
  noun: string;
  fields: Field[];
  /** Checks a whole entry (after defaults and the change); throws the refusal. */
  check: (row: Row) => void;
  view: (row: Row) => V;
}

const n = (v: Value) => Number(v);
const s = (v: Value) => String(v);

export const CHARGE_CHANNELS: Catalog<api.AdminChargeChannel> = {
  table: "charge_channels",
  noun: "charge_channel",
  fields: [
    checked("currency_code"),
    checked("protocol_code"),
    checked("address"),
    decimalText("usd_price"),
    shown,
    place,
  ],
  check: (r) => {
    if (!validAddress(s(r.protocol_code), s(r.address)))
      throw new DomainError("wallet_address_invalid", CODE_FAIL, { network: s(r.protocol_code) });
  },
  view: (r) => ({
    id: n(r.id),
    currency_code: s(r.currency_code),
    protocol_code: s(r.protocol_code),
    address: s(r.address),
    usd_price: s(r.usd_price),
    enabled: n(r.enabled),
    sort: n(r.sort),
  }),
};

export const WIRE_ACCOUNTS: Catalog<api.AdminWireAccount> = {
  table: "wire_accounts",
  noun: "wire_account",
  fields: [
    checked("bank_coin"),
    checked("bank_name"),
    checked("bank_address"),
    checked("bank_swift"),
    checked("payee_name"),
    checked("payee_account"),
    checked("bank_remark", { dflt: "" }),
    shown,
    place,
  ],
  check: () => undefined,
  view: (r) => ({
    id: n(r.id),
    bank_coin: s(r.bank_coin),
    bank_name: s(r.bank_name),
    bank_address: s(r.bank_address),
    bank_swift: s(r.bank_swift),
    payee_name: s(r.payee_name),
    payee_account: s(r.payee_account),
    bank_remark: s(r.bank_remark),
    enabled: n(r.enabled),
    sort: n(r.sort),
  }),
};

export const DRAW_CURRENCIES: Catalog<api.AdminDrawCurrency> = {
  table: "draw_currencies",
  noun: "draw_currency",
  fields: [
    checked("type", { fixed: true }),
    checked("code"),
    checked("protocol", { dflt: "" }),
    decimalText("draw_rate"),
    checked("fee_type"),
    decimalText("usd_price"),
    usdMicro("min", "min_micro"),
    usdMicro("max", "max_micro"),
    shown,
    place,
  ],
  check: (r) => {
    // A coin needs its network (addresses are checked against it); a bank currency has none.
    if ((n(r.type) === DRAW_TYPE.ADDRESS) !== (s(r.protocol) !== "")) throw invalid("protocol");
    // A rate is the fee's share of the amount: below 1, or the fee would take everything.
    if (n(r.fee_type) !== DRAW_FEE_TYPE.FIXED && !(Number(r.draw_rate) < 1))
      throw new DomainError("catalog_rate_share");
    if (n(r.min_micro) > n(r.max_micro)) throw new DomainError("catalog_min_above_max");
  },
  view: (r) => ({
    id: n(r.id),
    type: n(r.type),
    code: s(r.code),
    protocol: s(r.protocol),
    draw_rate: s(r.draw_rate),
    fee_type: n(r.fee_type),
    usd_price: s(r.usd_price),
    min: n(r.min_micro) / MICRO,
    max: n(r.max_micro) / MICRO,
    enabled: n(r.enabled),
    sort: n(r.sort),
  }),
};

const columnOf = (f: Field) => f.column ?? f.name;

function getRow(db: DB, cat: AnyCatalog, id: number): Row | undefined {
  return catalogRowById(db, { table: cat.table, id });
}

/** Any of the three catalogues (each view is an object of its own shape). */
export type AnyCatalog = Catalog<object>;

/** A filed catalogue request: an add (`id` null) or the fields a change sets, with the entry then. */
export interface CatalogPayload {
  noun: string;
  id: number | null;
  body: Record<string, unknown>;
  /** The entry as it stood when the change was filed (absent on requests filed before it was kept). */
  atFiling?: Row;
}

/** The catalogue named `noun` ("charge_channel", "wire_account", "draw_currency"), or undefined. */
export const catalogByNoun = (noun: string): AnyCatalog | undefined =>
  [CHARGE_CHANNELS, WIRE_ACCOUNTS, DRAW_CURRENCIES].find((c) => c.noun === noun) as
    AnyCatalog | undefined;

/**
 * What a pending catalogue change would change as its entry stands now (the approver judges today's
 * entry), or null for an add, an entry no longer there or a change that no longer reads.
 */
export function catalogChangeNow(db: DB, p: CatalogPayload): string | null {
  const cat = p.id === null ? undefined : catalogByNoun(p.noun);
  return cat && p.id !== null ? changeAsNow(db, cat, p.id, p.body) : null;
}

/** Entry `id` of a catalogue as stored (every column), or undefined. */
export function catalogEntry(db: DB, cat: AnyCatalog, id: number): Row | undefined {
  return getRow(db, cat, id);
}

/** True when two stored states of an entry hold the same value in every column. */
export function sameEntry(a: Row, b: Row): boolean {
  const columns = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...columns].every((c) => String(a[c] ?? null) === String(b[c] ?? null));
}

/**
 * What a filed change of entry `id` would change as the entry stands now ("address: A -> B"), or
 * null when the entry is gone or the change no longer reads.
 */
export function changeAsNow(
  db: DB,
  cat: AnyCatalog,
  id: number,
  body: Record<string, unknown>,
): string | null {
  const now = getRow(db, cat, id);
  if (!now) return null;
  try {
    return changes(cat, now, merged(cat, body, now));
  } catch (err) {
    if (err instanceof DomainError) return null;
    throw err;
  }
}

export function listCatalog(db: DB, cat: AnyCatalog): object[] {
  return catalogRows(db, { table: cat.table }).map(cat.view);
}

/** The fields as changed by `body` (absent fields keep `base`'s value); refusals name the field. */
function merged(cat: AnyCatalog, body: Record<string, unknown>, base: Row | null): Row {
  const row: Row = base ? { ...base } : {};
  for (const f of cat.fields) {
    const raw = body[f.name];
    const given = raw !== undefined && !(raw === "" && f.dflt !== undefined && !base);
    if (base && f.fixed) {
      if (given && String(raw).trim() !== String(base[columnOf(f)])) throw invalid(f.name);
      continue;
    }
    if (given) row[columnOf(f)] = f.read(raw);
    else if (!base) {
      if (f.dflt === undefined) throw invalid(f.name);
      row[columnOf(f)] = f.dflt;
    }
  }
  return row;
}

/** "field: before -> after" for each changed column, for the audit row. */
function changes(cat: AnyCatalog, before: Row | null, after: Row): string {
  return cat.fields
    .map(columnOf)
    .filter((c) => !before || String(before[c]) !== String(after[c]))
    .map((c) => `${c}: ${before ? `${before[c]} -> ` : ""}${after[c]}`)
    .join("; ");
}

/** Adds an entry (every required field given) with its audit row. */
export function addToCatalog(
  db: DB,
  cat: AnyCatalog,
  body: Record<string, unknown>,
  actor: string,
): object {
  const row = merged(cat, body, null);
  cat.check(row);
  try {
    return db.transaction(() => {
      const id = insertCatalogRow(db, { table: cat.table, row });
      writeAudit(db, {
        actor,
        action: `${cat.noun}.add`,
        target: `${cat.noun}:${id}`,
        remark: changes(cat, null, row),
      });
      return cat.view(getRow(db, cat, id)!);
    })();
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError("catalog_duplicate");
    throw err;
  }
}

/** Changes the given fields of entry `id`, checks the whole entry again, audits the difference. */
export function updateCatalog(
  db: DB,
  cat: AnyCatalog,
  id: number,
  body: Record<string, unknown>,
  actor: string,
): object {
  try {
    return db.transaction(() => {
      const before = getRow(db, cat, id);
      if (!before) throw new DomainError("not_found", CODE.NOT_FOUND, {}, 404);
      const after = merged(cat, body, before);
      cat.check(after);
      const diff = changes(cat, before, after);
      if (diff) {
        const columns = cat.fields.filter((f) => !f.fixed).map(columnOf);
        updateCatalogRow(db, { table: cat.table, id, columns, row: after });
        writeAudit(db, {
          actor,
          action: `${cat.noun}.update`,
          target: `${cat.noun}:${id}`,
          remark: diff,
        });
      }
      return cat.view(getRow(db, cat, id)!);
    })();
  } catch (err) {
    if (isUniqueViolation(err)) throw new DomainError("catalog_duplicate");
    throw err;
  }
}

/**
 * What an add (`id` null) or an update of entry `id` would change, checked as `addToCatalog` and
 * `updateCatalog` check it, writing nothing: the changed columns and the audit's description of
 * them. A refusal is the same the change itself would get, a duplicate included.
 */
export function previewCatalog(
  db: DB,
  cat: AnyCatalog,
  id: number | null,
  body: Record<string, unknown>,
): { columns: string[]; diff: string; after: Row } {
  const before = id === null ? null : getRow(db, cat, id);
  if (id !== null && !before) throw new DomainError("not_found", CODE.NOT_FOUND, {}, 404);
  const after = merged(cat, body, before ?? null);
  cat.check(after);
  const columns = cat.fields
    .map(columnOf)
    .filter((c) => !before || String(before[c]) !== String(after[c]));
  // A duplicate shows only when written: write it, then roll it back.
  const rollback = new Error("preview");
  try {
    db.transaction(() => {
      if (id === null) addToCatalog(db, cat, body, "preview");
      else updateCatalog(db, cat, id, body, "preview");
      throw rollback;
    })();
  } catch (err) {
    if (err !== rollback) throw err;
  }
  return { columns, diff: changes(cat, before ?? null, after), after };
}
