/**
 * Companies and feedback (upstream/API.md "Companies and feedback"). In company mode (the public
 * setting `is_main` = 1) /product searches the service providers below instead of instruments; a
 * visitor picks one and the company's status decides whether they go on or are sent to its
 * `loss_url`. Feedback is the public message form; operators read it in their inbox.
 */
import { z } from "zod";
import { endpoint, cacheBuster, id, text } from "./endpoint";
import type { AdminPage } from "./admin";

/** Longest company name the search reads (longer is refused). */
export const COMPANY_SEARCH_MAX = 64;
/** Longest feedback message and contact text. */
export const FEEDBACK_MESSAGE_MAX = 2000;
export const FEEDBACK_CONTACT_MAX = 120;
/** The public settings of company mode. */
export const COMPANY_MODE_KEY = "is_main";
export const COMPLAINT_EMAIL_KEY = "complaint_email";
/** A company's status that lets visitors in; any other value sends them to its loss_url. */
export const COMPANY_STATUS_OPEN = 0;

/** A company as visitors see it. `logo` is a path under /static/logos/ or an https address. */
export interface Company {
  id: number;
  name: string;
  logo: string;
  /** Its website. */
  url: string;
  /** What it does. */
  subject: string;
  registered_address: string;
  /** Its office address. */
  location: string;
  email: string;
}

export interface CompanyStatus {
  status: number;
  type: number;
  /** Where visitors go while status is not COMPANY_STATUS_OPEN (http or https). */
  loss_url: string;
}

export const getCompany = endpoint<Company[]>()({
  method: "GET",
  path: "/api/company/getCompany",
  auth: false,
  tag: "company",
  summary: "Enabled companies whose name contains `name` (case-insensitive); empty: all of them",
  query: z.object({
    name: text(COMPANY_SEARCH_MAX, "company.search_too_long").optional(),
    ...cacheBuster,
  }),
});

export const getCompanyStatus = endpoint<CompanyStatus>()({
  method: "GET",
  path: "/api/company/getCompanyStatus",
  auth: false,
  tag: "company",
  summary: "A company's status, type and loss_url (hidden companies included)",
  query: z.object({ id, ...cacheBuster }),
});

export const submitFeedback = endpoint<{ id: number }>()({
  method: "POST",
  path: "/api/feedback/submit",
  auth: false,
  tag: "company",
  summary: "Leave a message (with the user's uid when a token is sent); limited per address",
  body: z.object({
    message: text(FEEDBACK_MESSAGE_MAX, "company.feedback_message_too_long"),
    contact: text(FEEDBACK_CONTACT_MAX, "company.feedback_contact_too_long").optional(),
  }),
});

/* ---- operators ---------------------------------------------------------------------------- */

/** A company as operators see it. */
export interface AdminCompany extends Company, CompanyStatus {
  enabled: number;
  sort: number;
}

export interface AdminFeedback {
  id: number;
  /** The sender's uid when signed in. */
  uid: string | null;
  message: string;
  contact: string;
  lang: string;
  handled: number;
  handled_by: string | null;
  handled_at: string | null;
  created_at: string;
}

const enabled = z.union([z.literal("0"), z.literal("1"), z.literal(0), z.literal(1)]);
const small = z.union([z.number().int(), z.string().trim().max(6)]);
const companyFields = {
  name: text(120),
  logo: text(300),
  url: text(300),
  subject: text(300),
  registered_address: text(300),
  location: text(300),
  email: text(254),
  status: small,
  type: small,
  loss_url: text(300),
  enabled,
  sort: small,
};

export const companies = endpoint<AdminCompany[]>()({
  method: "GET",
  path: "/admin/api/companies",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Every company, hidden ones included",
  query: z.object({ ...cacheBuster }),
});

export const addCompany = endpoint<AdminCompany>()({
  method: "POST",
  path: "/admin/api/companies",
  auth: true,
  operator: "support",
  tag: "operators",
  summary: "Add a company: a name and any other field; audited",
  body: z.object(companyFields).partial().required({ name: true }),
});

export const updateCompany = endpoint<AdminCompany>()({
  method: "POST",
  path: "/admin/api/companies/:id",
  auth: true,
  operator: "support",
  tag: "operators",
  summary: "Change a company (hide it with enabled 0, set status and loss_url); audited",
  params: z.object({ id: z.string().max(32) }),
  body: z.object(companyFields).partial(),
});

export const feedbackInbox = endpoint<AdminPage<AdminFeedback>>()({
  method: "GET",
  path: "/admin/api/feedback",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Feedback, PAGE_SIZE a page, newest first",
  query: z.object({ page: id.optional(), ...cacheBuster }),
});

export const handleFeedback = endpoint<AdminFeedback>()({
  method: "POST",
  path: "/admin/api/feedback/:id/handled",
  auth: true,
  operator: "support",
  tag: "operators",
  summary: "Mark a message handled; audited",
  params: z.object({ id: z.string().max(32) }),
  body: z.object({}),
});
