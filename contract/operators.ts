/**
 * Operator roles and what each may do: the upstream refuses an /admin/api/ call whose permission the
 * caller's role lacks (403), the console hides what the signed-in role cannot do. Every operator
 * endpoint names the one permission it needs (`operator` in its definition, contract/api/admin.ts
 * and the content, company and verification areas).
 *
 * Separation of duties: support and finance are side by side, not one above the other; only an
 * admin holds every permission.
 */
export const OPERATOR_ROLES = ["viewer", "support", "finance", "admin"] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/**
 * - `read`: the queues, users, ledgers, the audit log, settings and the catalogue as they are;
 * - `support`: identity verification decisions, news, notices, companies, feedback;
 * - `money`: deposit and withdrawal decisions, adjustments;
 * - `admin`: the money catalogue (deposit channels, wire accounts, withdrawal currencies) and
 *   settings.
 */
export const PERMISSIONS = ["read", "support", "money", "admin"] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<OperatorRole, readonly Permission[]> = {
  viewer: ["read"],
  support: ["read", "support"],
  finance: ["read", "money"],
  admin: ["read", "support", "money", "admin"],
};

export function isOperatorRole(v: unknown): v is OperatorRole {
  return typeof v === "string" && (OPERATOR_ROLES as readonly string[]).includes(v);
}

/** True when the role holds the permission. */
export function can(role: OperatorRole, need: Permission): boolean {
  return ROLE_PERMISSIONS[role].includes(need);
}

/** The name the scripts' OPERATOR_TOKEN acts under (an admin); no operator account may take it. */
export const TOKEN_ACTOR = "token";

/** The shortest OPERATOR_TOKEN the upstream starts with. */
export const OPERATOR_TOKEN_MIN_LENGTH = 32;
