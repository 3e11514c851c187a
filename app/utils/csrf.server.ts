/**
 * CSRF protection of every POST form (remix-utils): a random token in a signed cookie (signed by the
 * session secrets) and the same token in each form's hidden `csrf` input (AuthenticityTokenInput,
 * fed by the root loader). A form is accepted only when both are present and equal.
 */
import { createCookie } from "@remix-run/node";
import { CSRF, CSRFError } from "remix-utils/csrf/server";
import { env, sessionSecrets } from "~/utils/env.server";
import { getT } from "~/i18n.server";
import { recordVolatile } from "~/utils/visitor-page-cache.server";

/** Name of the hidden input carrying the token. */
const CSRF_FIELD = "csrf";

let csrf: CSRF | null = null;

/** The name of the cookie that holds the token. */
export function csrfCookieName(): string {
  return env().secureCookies ? "__Host-tp_csrf" : "tp_csrf";
}

function csrfInstance(): CSRF {
  if (!csrf) {
    const cookie = createCookie(csrfCookieName(), {
      path: "/",
      httpOnly: true,
      secure: env().secureCookies,
      sameSite: "lax",
      secrets: sessionSecrets(),
    });
    csrf = new CSRF({ cookie, formDataKey: CSRF_FIELD });
  }
  return csrf;
}

/**
 * The token for the page and, when new, the Set-Cookie value that stores it. The token is the
 * visitor's own: a page kept for other visitors gets theirs in its place (visitor-page-cache).
 */
export async function commitCsrfToken(
  request: Request | Headers,
): Promise<readonly [string, string | null]> {
  const committed = await csrfInstance().commitToken(request);
  recordVolatile(committed[0], "csrf");
  return committed;
}

/** Whether a posted form carries the token of the request's cookie. */
async function csrfValid(request: Request, formData: FormData): Promise<boolean> {
  try {
    await csrfInstance().validate(formData, request.headers);
    return true;
  } catch (err) {
    if (err instanceof CSRFError) return false;
    throw err;
  }
}

/** Checks the CSRF token of a submitted form: null when valid, else the translated message. */
export async function checkCsrf(request: Request, formData: FormData): Promise<string | null> {
  if (await csrfValid(request, formData)) return null;
  const t = await getT(request);
  return t("common:csrf_failed");
}
