/** Settings area of the reference upstream over real HTTP against a fresh temporary database. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type Server } from "./accounts-helpers.js";

let s: Server;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

describe("settings", () => {
  it("area_list gives about 30 dialling areas with id, code and global_code", async () => {
    const r = await s.get<{ id: number; code: string; global_code: string }[]>(
      "/api/default/area_list?t=1",
    );
    expect(r.code).toBe(1);
    expect(r.data.length).toBeGreaterThanOrEqual(30);
    for (const a of r.data) {
      expect(Object.keys(a).sort()).toEqual(["code", "global_code", "id"]);
      expect(a.code).toMatch(/^[A-Z]{2}$/);
      expect(a.global_code).toMatch(/^\+\d{1,4}$/);
    }
    expect(r.data.find((a) => a.code === "US")?.global_code).toBe("+1");
    expect(r.data.find((a) => a.code === "HK")?.global_code).toBe("+852");
    expect(new Set(r.data.map((a) => a.id)).size).toBe(r.data.length);
  });

  it("setting?key=is_show_mobile answers the value, and follows the settings table", async () => {
    expect((await s.get("/api/default/setting?key=is_show_mobile&t=5")).data).toBe("1");
    await s.setting("is_show_mobile", "0");
    expect((await s.get("/api/default/setting?key=is_show_mobile")).data).toBe("0");
    expect((await s.get("/api/default/setting?key=register.captcha")).data).toBe("0");
  });

  it("refuses private or unknown settings and a missing key with a translated message", async () => {
    const priv = await s.get("/api/default/setting?key=risk.stop_out_pct");
    expect(priv).toMatchObject({ code: 0, data: null, msg: "Unknown setting: risk.stop_out_pct" });
    const de = await s.get("/api/default/setting?key=nope", { lang: "de" });
    expect(de.msg).toBe("Unbekannte Einstellung: nope");
    const missing = await s.get("/api/default/setting");
    expect(missing.code).toBe(0);
    expect(missing.msg).toMatch(/key/);
  });

  it("getBasicInfo reads service_link, service_link_type, verify_reg_type and trade_fee_type from settings", async () => {
    const r = await s.get("/api/basicSet/getBasicInfo");
    expect(r.code).toBe(1);
    expect(r.data).toEqual({
      service_link: "https://example.invalid/support",
      service_link_type: 1,
      verify_reg_type: 1,
      trade_fee_type: 2,
    });
    await s.setting("service_link", "https://chat.example.com/room");
    await s.setting("trade_fee_type", "1");
    const r2 = await s.get("/api/basicSet/getBasicInfo");
    expect(r2.data).toMatchObject({
      service_link: "https://chat.example.com/room",
      trade_fee_type: 1,
    });
  });
});
