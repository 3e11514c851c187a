/**
 * Company mode and feedback forms: the company search (GET /product?name=...), choosing a company
 * (POST /product) and the feedback form (POST /feedback). Bounds are the contract's.
 */
import { z } from "zod";
import {
  COMPANY_SEARCH_MAX,
  FEEDBACK_CONTACT_MAX,
  FEEDBACK_MESSAGE_MAX,
} from "@contract/api/company-rules";

export const companySearchSchema = z.object({
  name: z.string().trim().max(COMPANY_SEARCH_MAX, "company:search_too_long").optional(),
});

export const chooseCompanySchema = z.object({
  intent: z.literal("choose"),
  id: z.number({ invalid_type_error: "company:choose_invalid" }).int().positive(),
});

export const feedbackSchema = z.object({
  message: z
    .string({ required_error: "company:message_required" })
    .trim()
    .min(1, "company:message_required")
    .max(FEEDBACK_MESSAGE_MAX, "company:message_too_long"),
  contact: z.string().trim().max(FEEDBACK_CONTACT_MAX, "company:contact_too_long").optional(),
});
