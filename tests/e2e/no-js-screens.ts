/**
 * Screens whose page without JavaScript is not the hydrated page: a <noscript> or <details>
 * fallback, a server-drawn chart, a plain form where a script would open a dialog or pick a file
 * (the routes and components that use noscript, <details>, <dialog> or a hydration switch:
 * components/trade/*, routes order, user, mine.charge, mine.invite, mine.withdraw; the printed
 * statement's print button).
 *
 * Every other screen's page without JavaScript is the server's HTML, which the browser with
 * JavaScript parses first and hydration keeps as it is: a check of what the page is (axe, CSP
 * reports) made in the js project covers it. Checks of what the page does (forms, navigation) run
 * in both projects.
 */
import type { TestInfo } from "@playwright/test";
import { jsOn } from "./fixtures";

export const NO_JS_DIFFERS = new Set([
  "/trade?code=EURUSD",
  "/order",
  "/user",
  "/mine/charge?type=0",
  "/mine/charge?type=1",
  "/mine/invite",
  "/mine/withdraw",
  "/mine/statements/print",
]);

/** The screens of `urls` that this project checks: all with JavaScript, those that differ without. */
export function screensFor(info: TestInfo, urls: readonly string[]): string[] {
  return jsOn(info) ? [...urls] : urls.filter((u) => NO_JS_DIFFERS.has(u));
}
