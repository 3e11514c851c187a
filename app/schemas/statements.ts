/**
 * /mine/statements' range form (a GET form: the range is in the address, so a statement can be
 * bookmarked and the downloads name it): the first and last days, YYYY-MM-DD in UTC, checked by the
 * contract's rules (statementRange: real days, from on or before to, at most STATEMENT_MAX_DAYS).
 * /mine/notifications/settings' monthly statement form: one checkbox.
 */
import { z } from "zod";
import { dayStartMs, DAY_RE, statementRange } from "@contract/api/statements-rules";

const day = z
  .string({
    required_error: "statements:date_invalid",
    invalid_type_error: "statements:date_invalid",
  })
  .trim()
  .regex(DAY_RE, "statements:date_invalid");

export const statementRangeSchema = z.object({ from: day, to: day }).superRefine((v, ctx) => {
  const r = statementRange(v.from, v.to);
  if (r.ok) return;
  const path = r.problem === "date_invalid" && dayStartMs(v.from) === null ? "from" : "to";
  ctx.addIssue({ code: "custom", path: [path], message: `statements:${r.problem}` });
});

export const statementMailSchema = z.object({
  intent: z.literal("statement_mail"),
  monthly: z.literal("1").optional(),
});
