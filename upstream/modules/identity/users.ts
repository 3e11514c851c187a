/** User records of the account area: identities, uid and invite codes, public views. */
import crypto from "node:crypto";
import Decimal from "decimal.js";
import type { DB } from "../../platform/db.js";
import { MICRO } from "../money/ledger.js";

export interface UserRecord {
  id: number;
  uid: string;
  email: string | null;
  mobile: string | null;
  area_id: number | null;
  password_hash: string | null;
  invite_code: string;
  is_demo: number;
  demo_id: string | null;
  balance_micro: number;
  lock_balance_micro: number;
}

const COLS = "id, uid, email, mobile, area_id, password_hash, invite_code, is_demo, demo_id, balance_micro, lock_balance_micro";

export function userByEmail(db: DB, email: string): UserRecord | undefined {
  return db.prepare(`SELECT ${COLS} FROM users WHERE email = ?`).get(email) as UserRecord | undefined;
}

/** By mobile number; with no area, only when exactly one area has that number. */
export function userByMobile(db: DB, mobile: string, areaId: number | null): UserRecord | undefined {
  if (areaId !== null) return db.prepare(`SELECT ${COLS} FROM users WHERE area_id = ? AND mobile = ?`).get(areaId, mobile) as UserRecord | undefined;
  const rows = db.prepare(`SELECT ${COLS} FROM users WHERE mobile = ? LIMIT 2`).all(mobile) as UserRecord[];
  return rows.length === 1 ? rows[0] : undefined;
}

export function userById(db: DB, id: number): UserRecord | undefined {
  return db.prepare(`SELECT ${COLS} FROM users WHERE id = ?`).get(id) as UserRecord | undefined;
}

export function userByDemoId(db: DB, demoId: string): UserRecord | undefined {
  return db.prepare(`SELECT ${COLS} FROM users WHERE demo_id = ? AND is_demo = 1`).get(demoId) as UserRecord | undefined;
}

export function userByInviteCode(db: DB, code: string): UserRecord | undefined {
  return db.prepare(`SELECT ${COLS} FROM users WHERE invite_code = ?`).get(code.toUpperCase()) as UserRecord | undefined;
}

/** A fresh 8-digit numeric uid (no leading zero) not yet taken. */
export function newUid(db: DB): string {
  for (;;) {
    const uid = String(crypto.randomInt(10_000_000, 100_000_000));
    if (!db.prepare("SELECT 1 FROM users WHERE uid = ?").get(uid)) return uid;
  }
}

const INVITE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** A fresh 6-character invite code (upper-case letters and digits, no look-alikes) not yet taken. */
export function newInviteCode(db: DB): string {
  for (;;) {
    let c = "";
    for (let i = 0; i < 6; i++) c += INVITE_ALPHABET[crypto.randomInt(INVITE_ALPHABET.length)];
    if (!db.prepare("SELECT 1 FROM users WHERE invite_code = ?").get(c)) return c;
  }
}

/** Micro-USD integer to a JSON number rounded to 6 decimals (display only, never booked). */
export function microToNumber(micro: number): number {
  return new Decimal(micro).div(MICRO).toDecimalPlaces(6).toNumber();
}

export function loginView(u: UserRecord) {
  return { id: u.id, uid: u.uid, email: u.email, mobile: u.mobile, area_id: u.area_id, is_demo: u.is_demo, invite_code: u.invite_code };
}
