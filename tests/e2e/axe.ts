/**
 * axe as every spec runs it: the rules of WCAG 2.2 AA, run in the page itself.
 *
 * @axe-core/playwright's default mode runs axe in each frame and then merges the results in a
 * new blank page of the same context, which costs a renderer process and a second copy of axe
 * (about 550 KB of script) for every check: measured on five screens, 0.8 CPU-seconds per check
 * against 0.43 in legacy mode, which runs axe once in the page. The default mode exists for
 * cross-origin frames; the only frame the product shows is the operator's own support chat
 * (/mine/chat), a third party's page and not the product's to check, so legacy mode checks the
 * same markup.
 *
 * Only the violations are asked for in full (`resultTypes`): axe otherwise lists every element of
 * every rule that passed, which the checks never read, and building and sending that list cost a
 * quarter of each check (measured on seven screens, 10.7 s against 8.0 s for fourteen checks).
 */
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

/** The WCAG 2.2 AA rule tags the product is held to (issue 7). */
export const AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** An axe run of `page` with the product's rules; narrow it with `.include(...)` before `.analyze()`. */
export function axeOf(page: Page): AxeBuilder {
  // options() replaces every option set before it (withTags' runOnly included): it comes first.
  return new AxeBuilder({ page })
    .options({ resultTypes: ["violations"] })
    .withTags(AXE_TAGS)
    .setLegacyMode(true);
}
