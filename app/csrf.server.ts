/** CSRF protection of every POST form (remix-utils): token in a signed cookie and a hidden input. */
import { createCookie } from "@remix-run/node";
import { CSRF, CSRFError } from "remix-utils/csrf/server";
import { secureCookies, sessionSecrets } from "./config.server";
import { getT } from "./i18n.server";

let csrf: CSRF | null = null;

export function csrfInstance(): CSRF {
  if (!csrf) {
    const cookie = createCookie(secureCookies ? "__Host-tp_csrf" : "tp_csrf", {
      path: "/",
      httpOnly: true,
      secure: secureCookies,
      sameSite: "lax",
      secrets: sessionSecrets(),
    });
    csrf = new CSRF({ cookie, formDataKey: "csrf" });
  }
  return csrf;
}

/** The token for the page and, when new, the Set-Cookie value that stores it. */
export function commitCsrfToken(request: Request) {
  return csrfInstance().commitToken(request);
}

/**
 * Checks the CSRF token of a submitted form. Returns null when valid, otherwise a translated
 * message to show (never throws for a bad token).
 */
export async function checkCsrf(request: Request, formData: FormData): Promise<string | null> {
  try {
    await csrfInstance().validate(formData, request.headers);
    return null;
  } catch (err) {
    if (err instanceof CSRFError) {
      const t = await getT(request);
      return t("common:csrf_failed");
    }
    throw err;
  }
}
