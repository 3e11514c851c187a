/**
 * Real-name verification (upstream/API.md "Verification"): a real account submits its name, its id
 * number and both sides of its id document (names of its own image_upload images); an operator
 * certifies or rejects it with a remark. REVIEW_STATUS (contract/enums.ts): 0 not submitted (again
 * after a rejection, with the operator's remark), 1 waiting, 2 certified. Demo accounts are refused
 * with `user.only_true_account`'s message.
 */
import { z } from "zod";
import { endpoint, cacheBuster, text } from "./endpoint";
import { adminPage, AdminUserRefSchema } from "./admin";
import { ID_DIGITS, optionalChoiceField, pageField, wholeField } from "../fields";
import {
  REAL_NAME_MAX,
  CARD_ID_MIN,
  CARD_ID_MAX,
  REAL_NAME_RE,
  CARD_ID_RE,
  REVIEW_REMARK_MAX,
  REAL_NAME_REQUEST,
  REAL_NAME_REQUEST_TABS,
} from "./verify-rules";
export * from "./verify-rules";

/** The account's verification (user_real/center). */
export const RealNameCenterSchema = z.object({
  review_status: z
    .number()
    .int()
    .describe("REVIEW_STATUS: 0 not submitted (again after a rejection), 1 waiting, 2 certified"),
  name: z
    .string()
    .nullable()
    .describe("the name of the latest submission, or null when none was made"),
  card_id: z
    .string()
    .nullable()
    .describe(
      "the id number of the latest submission, masked (first 2 and last 2 characters shown)",
    ),
  remark: z
    .string()
    .nullable()
    .describe("the operator's remark of the latest rejection, while the account may submit again"),
  submitted_at: z.string().nullable().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
  reviewed_at: z.string().nullable().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
});
export type RealNameCenter = z.infer<typeof RealNameCenterSchema>;

/** A verification request as operators see it. */
export const AdminRealNameSchema = z.object({
  id: z.number().int(),
  user: AdminUserRefSchema,
  status: z.number().int().describe("REAL_NAME_REQUEST: 1 waiting, 2 approved, 3 rejected"),
  name: z.string(),
  card_id: z.string().describe("the whole id number (operators compare it with the images)"),
  front_url: z
    .string()
    .describe("where an operator reads the front image (GET with the operator's token)"),
  reverse_url: z
    .string()
    .describe("where an operator reads the back image (GET with the operator's token)"),
  front_pic: z
    .string()
    .describe("the stored image's name (the web's operator upload proxy serves it)"),
  reverse_pic: z.string().describe("the stored image's name"),
  remark: z.string().nullable(),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
  decided_at: z.string().nullable().describe('"YYYY-MM-DD HH:mm:ss" UTC, or null while waiting'),
  decided_by: z.string().nullable(),
});
export type AdminRealName = z.infer<typeof AdminRealNameSchema>;

/**
 * A form's text with each run of white space as one space, trimmed (absent is ""), then held to
 * `rule`: the first refusal it returns (a message key) is the field's.
 */
const spaced = (rule: (s: string) => { message: string; params?: object } | null) =>
  z
    .preprocess(
      (v) => (v === undefined ? "" : typeof v === "number" ? String(v) : v),
      z.string().transform((s) => s.trim().replace(/\s+/g, " ")),
    )
    .superRefine((s, ctx) => {
      const refusal = rule(s);
      if (refusal) ctx.addIssue({ code: z.ZodIssueCode.custom, ...refusal });
    });

/** The name as on the id: REAL_NAME_RE, at most REAL_NAME_MAX characters. */
const realNameField = spaced((s) =>
  !s
    ? { message: "verify.name_required" }
    : [...s].length > REAL_NAME_MAX
      ? { message: "verify.name_too_long", params: { max: REAL_NAME_MAX } }
      : !REAL_NAME_RE.test(s)
        ? { message: "verify.name_invalid" }
        : null,
);

/** The id number, upper-cased: CARD_ID_RE, CARD_ID_MIN to CARD_ID_MAX characters. */
const cardIdField = spaced((s) =>
  !s
    ? { message: "verify.card_id_required" }
    : s.length < CARD_ID_MIN || s.length > CARD_ID_MAX || !CARD_ID_RE.test(s.toUpperCase())
      ? { message: "verify.card_id_invalid", params: { min: CARD_ID_MIN, max: CARD_ID_MAX } }
      : null,
).transform((s) => s.toUpperCase());

/** An image_upload name of the account, required (`missing` when absent or blank). */
const picField = (missing: string) =>
  z
    .preprocess(
      (v) => v ?? "",
      text(200).transform((s) => s.trim()),
    )
    .refine((s) => s !== "", {
      message: missing,
    });

export const realName = endpoint({
  data: RealNameCenterSchema,
  method: "POST",
  path: "/api/user_real/real_name",
  auth: true,
  realAccount: true,
  tag: "verification",
  summary:
    "Submit the real-name verification: name, id number and both sides of the id (image_upload names of this account)",
  body: z.object({
    name: realNameField,
    card_id: cardIdField,
    /** The uploaded front side's name. */
    front_pic: picField("verify.front_missing"),
    /** The uploaded back side's name (another image than the front). */
    reverse_pic: picField("verify.reverse_missing"),
  }),
});

export const realNameCenter = endpoint({
  data: RealNameCenterSchema,
  method: "GET",
  path: "/api/user_real/center",
  auth: true,
  realAccount: true,
  tag: "verification",
  summary: "The account's verification: review_status, masked id, the remark of a rejection",
  query: z.object({ ...cacheBuster }),
});

export const realNames = endpoint({
  data: adminPage(AdminRealNameSchema),
  method: "GET",
  path: "/admin/api/real_names",
  auth: true,
  operator: "read",
  tag: "operators",
  summary:
    "Verification requests by review_status (REAL_NAME_REQUEST, default 1 waiting), PAGE_SIZE a page, oldest first",
  query: z.object({
    review_status: optionalChoiceField(REAL_NAME_REQUEST_TABS, REAL_NAME_REQUEST.WAITING),
    page: pageField(),
    ...cacheBuster,
  }),
});

const byId = z.object({ id: wholeField(ID_DIGITS) });

export const approveRealName = endpoint({
  data: AdminRealNameSchema,
  method: "POST",
  path: "/admin/api/real_names/:id/approve",
  auth: true,
  operator: "support",
  tag: "operators",
  summary: "Certify a waiting verification request",
  params: byId,
  body: z.object({}),
});

export const rejectRealName = endpoint({
  data: AdminRealNameSchema,
  method: "POST",
  path: "/admin/api/real_names/:id/reject",
  auth: true,
  operator: "support",
  tag: "operators",
  summary:
    "Reject a waiting verification request with a remark the user sees; they may submit again",
  params: byId,
  body: z.object({
    /** Required; at most REVIEW_REMARK_MAX characters. */
    remark: spaced((s) => (!s ? { message: "remark_required" } : null)).pipe(
      text(REVIEW_REMARK_MAX),
    ),
  }),
});
