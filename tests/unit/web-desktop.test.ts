/** Desktop visitors and the desktop address (product-spec.md section 1; app/utils/desktop.server.ts). */
import { describe, expect, it } from "vitest";
import {
  decideDesktop,
  desktopHost,
  isDesktopAgent,
  type DesktopRequest,
} from "~/utils/desktop.server";

const WINDOWS =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
const MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Safari/605.1.15";
const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";
const ANDROID =
  "Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

const page = (over: Partial<DesktopRequest> = {}): DesktopRequest => ({
  method: "GET",
  url: "/trade?code=EURUSD",
  hostname: "m.tradepost.example",
  host: "m.tradepost.example",
  protocol: "https",
  userAgent: WINDOWS,
  accept: "text/html,application/xhtml+xml",
  view: undefined,
  ...over,
});

describe("desktop agents", () => {
  it("counts Windows and macOS browsers, not phones or crawlers", () => {
    expect(isDesktopAgent(WINDOWS)).toBe(true);
    expect(isDesktopAgent(MAC)).toBe(true);
    expect(isDesktopAgent(IPHONE)).toBe(false);
    expect(isDesktopAgent(ANDROID)).toBe(false);
    expect(isDesktopAgent(GOOGLEBOT)).toBe(false);
    expect(isDesktopAgent("")).toBe(false);
  });
});

describe("the desktop address", () => {
  it("replaces the first subdomain with pc", () => {
    expect(desktopHost("m.tradepost.example")).toBe("pc.tradepost.example");
    expect(desktopHost("www.broker.co.uk")).toBe("pc.broker.co.uk");
  });

  it("is off without a subdomain, for addresses, and on the desktop host itself", () => {
    for (const h of ["tradepost.example", "localhost", "127.0.0.1", "::1", "pc.tradepost.example"])
      expect(desktopHost(h), h).toBeNull();
  });
});

describe("decideDesktop", () => {
  it("sends a desktop browser to the pc address with its path and query", () => {
    expect(decideDesktop(page(), null)).toEqual({
      kind: "desktop",
      location: "https://pc.tradepost.example/trade?code=EURUSD",
    });
    expect(decideDesktop(page({ host: "m.tradepost.example:8443" }), null)).toEqual({
      kind: "desktop",
      location: "https://pc.tradepost.example:8443/trade?code=EURUSD",
    });
  });

  it("prefers DESKTOP_URL, and never redirects to its own host", () => {
    expect(decideDesktop(page({ hostname: "tradepost.example" }), "https://desk.example")).toEqual({
      kind: "desktop",
      location: "https://desk.example/trade?code=EURUSD",
    });
    expect(decideDesktop(page(), "https://m.tradepost.example")).toEqual({ kind: "pass" });
  });

  it("leaves phones, crawlers, hosts without a desktop address and the console alone", () => {
    expect(decideDesktop(page({ userAgent: IPHONE }), null).kind).toBe("pass");
    expect(decideDesktop(page({ userAgent: GOOGLEBOT }), null).kind).toBe("pass");
    expect(decideDesktop(page({ hostname: "127.0.0.1", host: "127.0.0.1:3000" }), null).kind).toBe(
      "pass",
    );
    for (const url of ["/operator", "/operator/draws", "/live", "/build/x.js", "/healthz"])
      expect(decideDesktop(page({ url }), null).kind, url).toBe("pass");
  });

  it("redirects only page navigations", () => {
    expect(decideDesktop(page({ method: "POST" }), null).kind).toBe("pass");
    expect(decideDesktop(page({ accept: "application/json" }), null).kind).toBe("pass");
    expect(decideDesktop(page({ url: "/trade?_data=routes%2Ftrade" }), null).kind).toBe("pass");
  });

  it("remembers a choice to stay on the mobile site, and forgets it on request", () => {
    expect(decideDesktop(page({ url: "/trade?code=EURUSD&view=mobile" }), null)).toEqual({
      kind: "remember",
      view: "mobile",
      location: "/trade?code=EURUSD",
    });
    expect(decideDesktop(page({ view: "mobile" }), null).kind).toBe("pass");
    expect(decideDesktop(page({ url: "/?view=desktop", view: "mobile" }), null)).toEqual({
      kind: "remember",
      view: "desktop",
      location: "/",
    });
  });
});
