/**
 * The wallet's forms (POST /mine/wallet, /mine/withdraw-way, /mine/coin-address-list,
 * /mine/bank-card-list): add a coin address, add a bank account, delete one. `back` names the screen
 * to return to after adding (the withdrawal screen that asked for a destination).
 */
import { z } from "zod";
import { optionalSecurityCode } from "./security";
import { MSG, text } from "./fields";

const currency = z
  .number({ invalid_type_error: MSG.complete, required_error: MSG.complete })
  .int()
  .positive();

/** Where to go after adding a destination: the withdrawal screen, else the list of its kind. */
const back = z.enum(["withdraw"]).optional();

export const bindAddressSchema = z.object({
  intent: z.literal("bind_address"),
  back,
  draw_id: currency,
  dc_address: text().pipe(z.string().max(128)),
  totp_code: optionalSecurityCode,
});

export const bindBankSchema = z.object({
  intent: z.literal("bind_bank"),
  back,
  draw_id: currency,
  bank_name: text().pipe(z.string().max(120)),
  bank_address: text().pipe(z.string().max(200)),
  bank_swift: text().pipe(z.string().max(11)),
  payee_name: text().pipe(z.string().max(120)),
  payee_account: text().pipe(z.string().max(64)),
  remark: z.string().trim().max(200).optional(),
  totp_code: optionalSecurityCode,
});

export const deleteMethodSchema = z.object({
  intent: z.literal("delete"),
  id: z.number().int().positive(),
});
