/**
 * The HTML sanitiser of articles and announcements: the allow-list CONTENT_HTML turned into
 * sanitize-html options. Both programs run it: the upstream on every HTML an operator stores, the
 * web on every HTML it renders (and on the console's preview), so neither trusts the other.
 * Server-side only (never imported by browser code).
 */
import sanitizeHtml from "sanitize-html";
import { CONTENT_HTML } from "./api/content";

const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [...CONTENT_HTML.tags],
  allowedAttributes: Object.fromEntries(
    Object.entries(CONTENT_HTML.attributes).map(([tag, attrs]) => [tag, [...attrs]]),
  ),
  allowedSchemes: [...CONTENT_HTML.linkSchemes],
  allowedSchemesByTag: { img: [...CONTENT_HTML.imageSchemes] },
  allowProtocolRelative: false,
  disallowedTagsMode: "discard",
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: CONTENT_HTML.linkRel } }),
  },
};

/** `html` with only what the allow-list keeps. */
export function sanitizeContent(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
