/**
 * Companies and feedback (upstream/API.md "Companies and feedback"). In company mode (the public
 * setting `is_main` = 1) /product searches the service providers below instead of instruments; a
 * visitor picks one and the company's status decides whether they go on or are sent to its
 * `loss_url`. Feedback is the public message form; operators read it in their inbox.
 */
import { z } from "zod";
import { endpoint, cacheBuster, text } from "./endpoint";
import { adminPage } from "./admin";
import { choiceField, ID_DIGITS, pageField, wholeField } from "../fields";
import { COMPANY_SEARCH_MAX, FEEDBACK_MESSAGE_MAX, FEEDBACK_CONTACT_MAX } from "./company-rules";
export * from "./company-rules";

/** The public settings of company mode. */
export const COMPANY_MODE_KEY = "is_main";
export const COMPLAINT_EMAIL_KEY = "complaint_email";
/** A company's status that lets visitors in; any other value sends them to its loss_url. */
export const COMPANY_STATUS_OPEN = 0;

/** A company as visitors see it. */
export const CompanySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  logo: z.string().describe('a path under /static/logos/, an https address, or ""'),
  url: z.string().describe('its website, or ""'),
  subject: z.string().describe("what it does"),
  registered_address: z.string(),
  location: z.string().describe("its office address"),
  email: z.string(),
});
export type Company = z.infer<typeof CompanySchema>;

export const CompanyStatusSchema = z.object({
  status: z
    .number()
    .int()
    .describe("0 to 9: COMPANY_STATUS_OPEN lets visitors in, any other sends them to loss_url"),
  type: z.number().int().describe("0 to 9"),
  loss_url: z
    .string()
    .describe("where visitors go while status is not COMPANY_STATUS_OPEN (http or https)"),
});
export type CompanyStatus = z.infer<typeof CompanyStatusSchema>;

/** A company's or a message's id; a malformed one is the route's field refusal. */
const id = wholeField(ID_DIGITS);
const byId = z.object({ id });

/** A text answered trimmed; `tooLong` is the refusal of one beyond `max` (an upstream message). */
const trimmed = (max: number, tooLong?: string) => text(max, tooLong).transform((s) => s.trim());

export const getCompany = endpoint({
  data: z.array(CompanySchema),
  method: "GET",
  path: "/api/company/getCompany",
  auth: false,
  tag: "company",
  summary: "Enabled companies whose name contains `name` (case-insensitive); empty: all of them",
  query: z.object({
    name: trimmed(COMPANY_SEARCH_MAX, "company.search_too_long").optional(),
    ...cacheBuster,
  }),
});

export const getCompanyStatus = endpoint({
  data: CompanyStatusSchema,
  method: "GET",
  path: "/api/company/getCompanyStatus",
  auth: false,
  tag: "company",
  summary: "A company's status, type and loss_url (hidden companies included)",
  query: z.object({ id, ...cacheBuster }),
});

export const submitFeedback = endpoint({
  data: z.object({ id: z.number().int().describe("the message's id") }),
  method: "POST",
  path: "/api/feedback/submit",
  auth: false,
  tag: "company",
  summary: "Leave a message (with the user's uid when a token is sent); limited per address",
  body: z.object({
    /** Absent or blank: company.feedback_message_required. */
    message: z.preprocess(
      (v) => v ?? "",
      trimmed(FEEDBACK_MESSAGE_MAX, "company.feedback_message_too_long").refine((s) => s !== "", {
        message: "company.feedback_message_required",
      }),
    ),
    contact: trimmed(FEEDBACK_CONTACT_MAX, "company.feedback_contact_too_long").optional(),
  }),
});

/* ---- operators ---------------------------------------------------------------------------- */

/** A company as operators see it. */
export const AdminCompanySchema = CompanySchema.merge(CompanyStatusSchema).extend({
  enabled: z.number().int().describe("1 shown, 0 hidden"),
  sort: z.number().int().describe("the place in the list"),
});
export type AdminCompany = z.infer<typeof AdminCompanySchema>;

export const AdminFeedbackSchema = z.object({
  id: z.number().int(),
  uid: z.string().nullable().describe("the sender's uid when signed in"),
  message: z.string(),
  contact: z.string().describe('how to reach the sender, or ""'),
  lang: z.string().describe("the language the message was sent in"),
  handled: z.number().int().describe("1 handled, 0 not yet"),
  handled_by: z.string().nullable().describe("the operator who handled it"),
  handled_at: z.string().nullable().describe('"YYYY-MM-DD HH:mm:ss" UTC, or null'),
  created_at: z.string().describe('"YYYY-MM-DD HH:mm:ss" UTC'),
});
export type AdminFeedback = z.infer<typeof AdminFeedbackSchema>;

/** A company's status or type: 0 to 9 (status COMPANY_STATUS_OPEN lets visitors in). */
const small = choiceField([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
const companyFields = {
  /** Required, not blank. */
  name: trimmed(120).refine((s) => s !== ""),
  /** A file under /static/logos/ or an https address (checked by the upstream), or "". */
  logo: trimmed(300),
  url: trimmed(300),
  subject: trimmed(300),
  registered_address: trimmed(300),
  location: trimmed(300),
  email: trimmed(254),
  status: small,
  type: small,
  loss_url: trimmed(300),
  /** 1 shown, 0 hidden. */
  enabled: choiceField([0, 1]),
  /** The place in the list, 0 to 99,999. */
  sort: wholeField(5),
};

export const companies = endpoint({
  data: z.array(AdminCompanySchema),
  method: "GET",
  path: "/admin/api/companies",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Every company, hidden ones included",
  query: z.object({ ...cacheBuster }),
});

export const addCompany = endpoint({
  data: AdminCompanySchema,
  method: "POST",
  path: "/admin/api/companies",
  auth: true,
  operator: "support",
  tag: "operators",
  summary: "Add a company: a name and any other field; audited",
  body: z.object(companyFields).partial().required({ name: true }),
});

export const updateCompany = endpoint({
  data: AdminCompanySchema,
  method: "POST",
  path: "/admin/api/companies/:id",
  auth: true,
  operator: "support",
  tag: "operators",
  summary: "Change a company (hide it with enabled 0, set status and loss_url); audited",
  params: byId,
  body: z.object(companyFields).partial(),
});

export const feedbackInbox = endpoint({
  data: adminPage(AdminFeedbackSchema),
  method: "GET",
  path: "/admin/api/feedback",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Feedback, PAGE_SIZE a page, newest first",
  query: z.object({ page: pageField(), ...cacheBuster }),
});

export const handleFeedback = endpoint({
  data: AdminFeedbackSchema,
  method: "POST",
  path: "/admin/api/feedback/:id/handled",
  auth: true,
  operator: "support",
  tag: "operators",
  summary: "Mark a message handled; audited",
  params: byId,
  body: z.object({}),
});
