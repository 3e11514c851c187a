/**
 * The signed-in account's own profile calls (upstream/API.md "Profile"): a password-change code sent
 * to the account's own address, binding an e-mail to an account that has none, and the invite
 * figures. Real accounts only (demo accounts are refused with user.only_true_account).
 */
import { z } from "zod";
import { endpoint, cacheBuster } from "./endpoint";
import { CodeSentSchema, filled, loginTypeField } from "./identity";

export const InviteInfoSchema = z.object({
  invite_code: z.string(),
  invited_count: z.number().int().describe("real accounts registered with this invite code"),
});
export type InviteInfo = z.infer<typeof InviteInfoSchema>;

export const sendOwnCode = endpoint({
  data: CodeSentSchema,
  method: "POST",
  path: "/api/user/send_own_code",
  auth: true,
  tag: "identity",
  realAccount: true,
  summary:
    "Send a password-change code to the account's own e-mail or mobile (never to a typed address)",
  body: z.object({
    /** Which of the account's addresses: "email" or "mobile"; the e-mail when absent and set. */
    type: loginTypeField(),
  }),
});

export const sendBindEmailCode = endpoint({
  data: CodeSentSchema,
  method: "POST",
  path: "/api/user/send_bind_email_code",
  auth: true,
  tag: "identity",
  realAccount: true,
  summary: "Send a code to an e-mail address the account (which has none) wants to bind",
  body: z.object({ email: filled(128) }),
});

export const bindEmail = endpoint({
  data: z.null(),
  method: "POST",
  path: "/api/user/bind_email",
  auth: true,
  tag: "identity",
  realAccount: true,
  summary: "Bind an e-mail address to an account that has none, with the code sent to it",
  body: z.object({ email: filled(128), auth_code: filled(16) }),
});

export const inviteInfo = endpoint({
  data: InviteInfoSchema,
  method: "GET",
  path: "/api/user/invite_info",
  auth: true,
  tag: "identity",
  realAccount: true,
  summary: "The account's invite code and how many accounts registered with it",
  query: z.object({ ...cacheBuster }),
});

/** basicSet `service_link_type`: 1 the support chat opens in a frame, 2 as a link. */
export const SERVICE_LINK_TYPE = { FRAME: 1, LINK: 2 } as const;
