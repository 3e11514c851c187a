/** Small web rules: redirects after login, the path kept in /login?from=, the code countdown, sparklines. */
import { describe, expect, it } from "vitest";
import { loginUrl, pathOf, safeRedirectPath } from "../../app/utils/session.server";
import { cooldownLeft } from "../../app/utils/forms.server";
import { sparklinePath } from "../../app/components/Sparkline";
import { formatChange, formatPrice } from "../../app/utils/format";
import { TABS, isActiveTab } from "../../app/components/TabBar";

describe("redirects", () => {
  it("follows only same-site paths after login", () => {
    expect(safeRedirectPath("/user?x=1")).toBe("/user?x=1");
    expect(safeRedirectPath("//evil.example/")).toBe("/");
    expect(safeRedirectPath("https://evil.example/")).toBe("/");
    expect(safeRedirectPath("/\\evil.example")).toBe("/");
    expect(safeRedirectPath(null)).toBe("/");
  });
  it("refuses control characters, backslashes and anything a browser may read as another origin", () => {
    for (const bad of [
      "/\t/evil.example",
      "/\n/x",
      "/\r\n/x",
      "\t//evil.example",
      "/\u0000/evil.example",
      "/\u007f/x",
      "/\u0085/x",
      "/x\\y",
      "\\\\evil.example",
      "/\\/evil.example",
      "javascript:alert(1)",
      " /x",
      "",
      undefined,
    ])
      expect(safeRedirectPath(bad), JSON.stringify(bad)).toBe("/");
    expect(safeRedirectPath("/\t/evil.example", "")).toBe("");
  });
  it("answers the parsed same-origin path, query and fragment", () => {
    expect(safeRedirectPath("/trade?symbol=BTC#book")).toBe("/trade?symbol=BTC#book");
    expect(safeRedirectPath("/a/../user")).toBe("/user");
    expect(safeRedirectPath("/a b")).toBe("/a%20b");
    expect(safeRedirectPath("/%09/evil.example")).toBe("/%09/evil.example");
  });
  it("keeps the path and query of the page, without single-fetch internals", () => {
    expect(pathOf(new Request("http://x/order?status=1"))).toBe("/order?status=1");
    expect(pathOf(new Request("http://x/order.data?status=1&_routes=routes%2Forder"))).toBe(
      "/order?status=1",
    );
    expect(pathOf(new Request("http://x/_root.data"))).toBe("/");
    expect(loginUrl("/order?status=1")).toBe("/login?from=%2Forder%3Fstatus%3D1");
  });
});

describe("code countdown", () => {
  it("counts 60 seconds from the send", () => {
    const now = 1_000_000;
    expect(cooldownLeft(now, now)).toBe(60);
    expect(cooldownLeft(now - 15_500, now)).toBe(45);
    expect(cooldownLeft(now - 60_000, now)).toBe(0);
    expect(cooldownLeft(undefined, now)).toBe(0);
  });
});

describe("sparkline", () => {
  it("draws a line and a closed area inside the box", () => {
    const { line, area } = sparklinePath([1, 2, 3, 2], 84, 32);
    expect(line.startsWith("M")).toBe(true);
    expect(area.endsWith("Z")).toBe(true);
    const nums = line
      .slice(1)
      .split("L")
      .flatMap((p) => p.split(",").map(Number));
    for (const n of nums) expect(n).toBeGreaterThanOrEqual(0);
    expect(Math.max(...nums.filter((_, i) => i % 2 === 0))).toBeLessThanOrEqual(84);
  });
  it("draws nothing with fewer than two points, and a flat line for constant prices", () => {
    expect(sparklinePath([5], 84, 32).line).toBe("");
    expect(sparklinePath([5, 5, 5], 84, 32).line).toMatch(/^M2\.0,16\.0L/);
  });
});

describe("display", () => {
  it("formats prices with the instrument precision and signed changes", () => {
    expect(formatPrice(1.085234, 5, "en")).toBe("1.08523");
    expect(formatPrice(151.4, 3, "de")).toBe("151,400");
    expect(formatChange(0.531, "en")).toBe("+0.53%");
    expect(formatChange(-1.2, "en")).toBe("-1.20%");
    expect(formatPrice(NaN, 2)).toBe("--");
  });
  it("keeps the spec's tab order", () => {
    expect(TABS.map((t) => t.key)).toEqual(["quotes", "trade", "order", "documentary", "ranking"]);
  });
  it("marks exactly one tab active: copy trading and the ranking share /rank by its view", () => {
    const active = (path: string, search = "") =>
      TABS.filter((tab) => isActiveTab(tab, path, search)).map((t) => t.key);
    expect(active("/")).toEqual(["quotes"]);
    expect(active("/trade", "?code=EURUSD")).toEqual(["trade"]);
    expect(active("/order", "?status=3")).toEqual(["order"]);
    expect(active("/rank")).toEqual(["ranking"]);
    expect(active("/rank", "?view=copy")).toEqual(["documentary"]);
    expect(active("/user")).toEqual([]);
  });
});
