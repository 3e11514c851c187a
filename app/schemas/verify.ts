/**
 * The real-name verification form (POST /mine/auth, multipart): name and id number, checked here
 * for presence and length (the upstream applies the full rules and answers translated refusals);
 * the two images (`front`, `back`) are checked in the action, whose upstream recognises images by
 * their bytes.
 */
import { z } from "zod";
import {
  CARD_ID_MAX,
  CARD_ID_MIN,
  CARD_ID_RE,
  REAL_NAME_MAX,
  REAL_NAME_RE,
  REVIEW_REMARK_MAX,
} from "@contract/api/verify-rules";
import { MSG, text } from "./fields";

export const VERIFY_MSG = {
  name: "verify:errors.name",
  nameLong: "verify:errors.name_long",
  nameChars: "verify:errors.name_chars",
  cardId: "verify:errors.card_id",
  cardIdLength: "verify:errors.card_id_length",
  cardIdChars: "verify:errors.card_id_chars",
  front: "verify:errors.front",
  back: "verify:errors.back",
  state: "verify:errors.state",
  frontNotImage: "verify:errors.front_not_image",
  backNotImage: "verify:errors.back_not_image",
} as const;

export const realNameSchema = z.object({
  name: text(VERIFY_MSG.name).pipe(
    z
      .string()
      .transform((v) => v.replace(/\s+/g, " "))
      .pipe(
        z
          .string()
          .max(REAL_NAME_MAX, VERIFY_MSG.nameLong)
          .regex(REAL_NAME_RE, VERIFY_MSG.nameChars),
      ),
  ),
  card_id: text(VERIFY_MSG.cardId).pipe(
    z
      .string()
      .min(CARD_ID_MIN, VERIFY_MSG.cardIdLength)
      .max(CARD_ID_MAX, VERIFY_MSG.cardIdLength)
      .regex(CARD_ID_RE, VERIFY_MSG.cardIdChars),
  ),
});

const requestId = z
  .number({ invalid_type_error: MSG.complete, required_error: MSG.complete })
  .int()
  .positive();

/** The console's decisions on a verification request (the remark of a rejection is required). */
export const approveRealNameSchema = z.object({ intent: z.literal("approve"), id: requestId });
export const rejectRealNameSchema = z.object({
  intent: z.literal("reject"),
  id: requestId,
  remark: text().pipe(z.string().max(REVIEW_REMARK_MAX)),
});
