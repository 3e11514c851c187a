/**
 * A session's device as people name it, read from its User-Agent: "Chrome 120 · Android 14", for
 * the session list and the new-device notice.
 */
import Bowser from "bowser";

/** Browser (with its major version) and system, joined by " · "; "" when nothing is known. */
export function describeUserAgent(ua: string | null | undefined): string {
  if (!ua) return "";
  const p = Bowser.parse(ua);
  const major = p.browser.version?.split(".")[0];
  const browser = p.browser.name ? [p.browser.name, major].filter(Boolean).join(" ") : "";
  const os = p.os.name ? [p.os.name, p.os.version ?? ""].filter(Boolean).join(" ") : "";
  return [browser, os].filter(Boolean).join(" · ") || ua.slice(0, 60);
}
