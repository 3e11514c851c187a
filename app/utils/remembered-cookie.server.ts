import { createCookie } from "@remix-run/node";
import { env } from "~/utils/env.server";

const YEAR_S = 365 * 24 * 60 * 60;

/**
 * A cookie that remembers a visitor's choice (language, policy notice seen, company, chart, hidden
 * balance) for `years`: sent on every path, same-site lax, out of scripts' reach, secure where the
 * site is served over HTTPS (env secureCookies, read when it is made).
 */
export function rememberedCookie(name: string, years = 1) {
  return createCookie(name, {
    path: "/",
    sameSite: "lax",
    httpOnly: true,
    secure: env().secureCookies,
    maxAge: years * YEAR_S,
  });
}
