/**
 * News and announcements forms: dismissing the policy notice (POST /policy-notice) and the
 * console's editors. Editor fields are bounded here by the contract; the upstream checks them.
 */
import { z } from "zod";
import { CONTENT_MAX_CHARS } from "@contract/api/content-rules";

export const dismissPolicySchema = z.object({
  version: z
    .string({ required_error: "content:dismiss_invalid" })
    .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, "content:dismiss_invalid"),
  redirectTo: z.string().max(2000).optional(),
});

const field = (max: number) => z.string().trim().max(max).optional();

/** Editor fields of a news item (see contract/api/content.ts addNews). */
export const NEWS_FIELDS = {
  category_id: field(12),
  title: field(200),
  desc: field(500),
  logo: field(80),
  content: z.string().max(CONTENT_MAX_CHARS, "content:content_too_long").optional(),
  lang: field(8),
  published: field(1),
};

/** Editor fields of an announcement (see contract/api/content.ts addNotice). */
export const NOTICE_FIELDS = {
  title: field(200),
  content: z.string().max(CONTENT_MAX_CHARS, "content:content_too_long").optional(),
  lang: field(8),
  is_policy: field(1),
  published: field(1),
};

/** "preview" shows the sanitised result without storing it; "save" stores it (a new one without id). */
export function editorSchemas<F extends z.ZodRawShape>(fields: F) {
  const id = z.number().int().positive().optional();
  return {
    preview: z.object({ intent: z.literal("preview"), id }).extend(fields),
    save: z.object({ intent: z.literal("save"), id }).extend(fields),
  };
}
