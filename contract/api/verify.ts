/**
 * Real-name verification (upstream/API.md "Verification"): a real account submits its name, its id
 * number and both sides of its id document (names of its own image_upload images); an operator
 * certifies or rejects it with a remark. REVIEW_STATUS (contract/enums.ts): 0 not submitted (again
 * after a rejection, with the operator's remark), 1 waiting, 2 certified. Demo accounts are refused
 * with `user.only_true_account`'s message.
 */
import { z } from "zod";
import { endpoint, cacheBuster, id, text } from "./endpoint";
import type { AdminPage, AdminUserRef } from "./admin";

/** Longest name accepted, in characters (after trimming). */
export const REAL_NAME_MAX = 64;
/** Shortest and longest id number accepted, in characters (after trimming). */
export const CARD_ID_MIN = 4;
export const CARD_ID_MAX = 32;
/** A name: letters and marks, spaces and the punctuation names use (. ' ’ · -), starting with a letter. */
export const REAL_NAME_RE = /^[\p{L}\p{M}][\p{L}\p{M} .'’·-]*$/u;
/** An id number: letters, digits and the separators ids are written with ("A123456(7)", "12-3456"). */
export const CARD_ID_RE = /^[A-Za-z0-9][A-Za-z0-9()\-/ ]*$/;
/** Longest operator remark kept. */
export const REVIEW_REMARK_MAX = 500;

/** The account's verification (user_real/center). */
export interface RealNameCenter {
  /** REVIEW_STATUS. */
  review_status: number;
  /** The name of the latest submission, or null when none was made. */
  name: string | null;
  /** The id number of the latest submission, masked (first 2 and last 2 characters shown). */
  card_id: string | null;
  /** The operator's remark of the latest rejection, while the account may submit again. */
  remark: string | null;
  /** "YYYY-MM-DD HH:mm:ss" UTC. */
  submitted_at: string | null;
  reviewed_at: string | null;
}

/** Status of a verification request in the operators' queue. */
export const REAL_NAME_REQUEST = { WAITING: 1, APPROVED: 2, REJECTED: 3 } as const;
export type RealNameRequestStatus = (typeof REAL_NAME_REQUEST)[keyof typeof REAL_NAME_REQUEST];
/** The queue's tabs in the order the console shows them (waiting first). */
export const REAL_NAME_REQUEST_TABS: readonly RealNameRequestStatus[] = [
  REAL_NAME_REQUEST.WAITING,
  REAL_NAME_REQUEST.APPROVED,
  REAL_NAME_REQUEST.REJECTED,
];

/** A verification request as operators see it. */
export interface AdminRealName {
  id: number;
  user: AdminUserRef;
  /** REAL_NAME_REQUEST. */
  status: number;
  name: string;
  /** The whole id number (operators compare it with the images). */
  card_id: string;
  /** Where an operator reads each image (GET with the operator's token). */
  front_url: string;
  reverse_url: string;
  /** The stored image names (the web's operator upload proxy serves them). */
  front_pic: string;
  reverse_pic: string;
  remark: string | null;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
}

export const realName = endpoint<RealNameCenter>()({
  method: "POST",
  path: "/api/user_real/real_name",
  auth: true,
  realAccount: true,
  tag: "verification",
  summary:
    "Submit the real-name verification: name, id number and both sides of the id (image_upload names of this account)",
  body: z.object({
    name: text(REAL_NAME_MAX, "verify.name_too_long"),
    card_id: text(CARD_ID_MAX),
    /** The uploaded front side's name. */
    front_pic: text(200),
    /** The uploaded back side's name. */
    reverse_pic: text(200),
  }),
});

export const realNameCenter = endpoint<RealNameCenter>()({
  method: "GET",
  path: "/api/user_real/center",
  auth: true,
  realAccount: true,
  tag: "verification",
  summary: "The account's verification: review_status, masked id, the remark of a rejection",
  query: z.object({ ...cacheBuster }),
});

export const realNames = endpoint<AdminPage<AdminRealName>>()({
  method: "GET",
  path: "/admin/api/real_names",
  auth: true,
  operator: "read",
  tag: "operators",
  summary:
    "Verification requests by review_status (REAL_NAME_REQUEST, default 1 waiting), PAGE_SIZE a page, oldest first",
  query: z.object({ review_status: id.optional(), page: id.optional(), ...cacheBuster }),
});

const byId = z.object({ id: z.string().max(32) });

export const approveRealName = endpoint<AdminRealName>()({
  method: "POST",
  path: "/admin/api/real_names/:id/approve",
  auth: true,
  operator: "support",
  tag: "operators",
  summary: "Certify a waiting verification request",
  params: byId,
  body: z.object({}),
});

export const rejectRealName = endpoint<AdminRealName>()({
  method: "POST",
  path: "/admin/api/real_names/:id/reject",
  auth: true,
  operator: "support",
  tag: "operators",
  summary:
    "Reject a waiting verification request with a remark the user sees; they may submit again",
  params: byId,
  body: z.object({ remark: text(REVIEW_REMARK_MAX) }),
});
