/** Typed access to the settings table (defaults are inserted by migration 001). */
import type { DB } from "./db.js";
import { readSetting, writeSetting } from "./settings-store.js";

export function getSetting(db: DB, key: string): string | undefined {
  return readSetting(db, { key });
}

export function getNumberSetting(db: DB, key: string, dflt: number): number {
  const v = getSetting(db, key);
  const n = v === undefined ? NaN : Number(v);
  return Number.isFinite(n) ? n : dflt;
}

export function getBoolSetting(db: DB, key: string, dflt = false): boolean {
  const v = getSetting(db, key);
  return v === undefined ? dflt : v === "1" || v === "true";
}

export function setSetting(db: DB, key: string, value: string | number | boolean): void {
  const v = typeof value === "boolean" ? (value ? "1" : "0") : String(value);
  writeSetting(db, { key, value: v });
}
