/**
 * Companies and feedback (upstream/API.md "Companies and feedback"). In company mode (the public
 * setting `is_main` = 1) /product searches the service providers below instead of instruments; a
 * visitor picks one and the company's status decides whether they go on or are sent to its
 * `loss_url`. Feedback is the public message form; operators read it in their inbox.
 */
import { z } from "zod";
import { endpoint, cacheBuster, text } from "./endpoint";
import type { AdminPage } from "./admin";
import { choiceField, ID_DIGITS, pageField, wholeField } from "../fields";

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

/** A company's or a message's id; a malformed one is the route's field refusal. */
const id = wholeField(ID_DIGITS);
const byId = z.object({ id });

/** A text answered trimmed; `tooLong` is the refusal of one beyond `max` (an upstream message). */
const trimmed = (max: number, tooLong?: string) => text(max, tooLong).transform((s) => s.trim());

export const getCompany = endpoint<Company[]>()({
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
  params: byId,
  body: z.object(companyFields).partial(),
});

export const feedbackInbox = endpoint<AdminPage<AdminFeedback>>()({
  method: "GET",
  path: "/admin/api/feedback",
  auth: true,
  operator: "read",
  tag: "operators",
  summary: "Feedback, PAGE_SIZE a page, newest first",
  query: z.object({ page: pageField(), ...cacheBuster }),
});

export const handleFeedback = endpoint<AdminFeedback>()({
  method: "POST",
  path: "/admin/api/feedback/:id/handled",
  auth: true,
  operator: "support",
  tag: "operators",
  summary: "Mark a message handled; audited",
  params: byId,
  body: z.object({}),
});
