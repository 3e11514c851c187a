/**
 * Price alerts over real HTTP on a fresh store with the hand-driven market: an alert fires once
 * when the price reaches it (a notification of kind price_alert, the alert ended), a `below` and a
 * day's-change alert likewise, an `every` alert fires again only after its pause, the number of
 * active alerts is capped by the setting, refusals change nothing, and only the owner removes one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startUpstream, type Server } from "./upstream-harness.js";

let s: Server;

beforeAll(async () => {
  s = await startUpstream({
    tmpPrefix: "tp-alerts-",
    manualFeed: true,
    config: { devOutbox: true, simulate: false, smtpUrl: null },
  });
  await s.tick("EURUSD", 1.1);
  await s.tick("GBPUSD", 1.3);
}, 60_000);

afterAll(async () => {
  await s?.close();
});

async function demo(): Promise<string> {
  const c = await s.post("/api/user/createAccountDemoForU", {});
  return (await s.post("/api/user/loginForU", { demo_id: c.data.demo_id })).data.token;
}

const idOf = (code: string) => s.feed!.quote(code)!.id;
const alerts = (token: string) => s.get("/api/alerts", { token }).then((r) => r.data);
const notices = (token: string) =>
  s.get("/api/user/notices?page=1", { token }).then((r) => r.data.data as any[]);
const create = (token: string, body: Record<string, string | number>) =>
  s.post("/api/alerts/create", body, { token });

/** Moves a price and waits until what it set off is written. */
async function tick(code: string, price: number): Promise<void> {
  await s.tick(code, price);
  await s.settled();
}

describe("price alerts", () => {
  it("fires once when the price reaches an `above` alert, then ends", async () => {
    const token = await demo();
    const made = await create(token, {
      forex_id: idOf("EURUSD"),
      condition: "above",
      target: "1.105",
    });
    expect(made.msg).toBe("Alert set");
    expect(made.data).toMatchObject({ code: "EURUSD", condition: "above", target: 1.105 });
    expect(made.data).toMatchObject({ repeat: "once", active: true, fired_at: "" });
    await tick("EURUSD", 1.1049);
    expect(await notices(token)).toHaveLength(0);
    await tick("EURUSD", 1.1051);
    const told = await notices(token);
    expect(told.map((n) => n.kind)).toEqual(["price_alert"]);
    expect(told[0].title).toBe("Price alert: EURUSD");
    expect(told[0].body).toBe("EURUSD is at 1.1051, at or above your alert at 1.105.");
    const [a] = await alerts(token);
    expect(a.active).toBe(false);
    expect(a.fired_at).not.toBe("");
    // Once: the price staying above tells nothing more.
    await tick("EURUSD", 1.106);
    expect(await notices(token)).toHaveLength(1);
    await tick("EURUSD", 1.1);
  });

  it("a `below` alert and a day's-change alert fire when reached", async () => {
    const token = await demo();
    await create(token, { forex_id: idOf("GBPUSD"), condition: "below", target: "1.29" });
    const open = s.feed!.quote("GBPUSD")!.open;
    await create(token, { forex_id: idOf("GBPUSD"), condition: "change", target: "2" });
    await tick("GBPUSD", 1.2899);
    let told = await notices(token);
    expect(told.map((n) => n.body)).toEqual([
      "GBPUSD is at 1.2899, at or below your alert at 1.29.",
    ]);
    const moved = Math.round(open * 1.021 * 10000) / 10000;
    await tick("GBPUSD", moved);
    told = await notices(token);
    expect(told).toHaveLength(2);
    expect(told[0].body).toMatch(
      /^GBPUSD has moved 2\.\d+ % since today's open, past your alert at 2 %\.$/,
    );
    await tick("GBPUSD", 1.3);
  });

  it("an `every` alert waits for its pause before it fires again", async () => {
    const token = await demo();
    const made = await create(token, {
      forex_id: idOf("EURUSD"),
      condition: "above",
      target: "1.2",
      repeat: "every",
      cooldown_min: 1,
    });
    expect(made.data).toMatchObject({ repeat: "every", cooldown_min: 1 });
    await tick("EURUSD", 1.2);
    await tick("EURUSD", 1.21);
    expect(await notices(token)).toHaveLength(1);
    expect((await alerts(token))[0].active).toBe(true);
    await tick("EURUSD", 1.1);
  });

  it("refuses what it cannot keep, and caps the active alerts by the setting", async () => {
    const token = await demo();
    const eur = idOf("EURUSD");
    expect((await create(token, { forex_id: eur, condition: "change", target: "150" })).msg).toBe(
      "The change is 0.01 % to 100 %",
    );
    expect(
      (
        await create(token, {
          forex_id: eur,
          condition: "above",
          target: "1.2",
          until: "2000-01-01",
        })
      ).msg,
    ).toBe("The last day must be today or later (YYYY-MM-DD)");
    expect((await create(token, { forex_id: 999999, condition: "above", target: "1" })).msg).toBe(
      "This instrument cannot have alerts",
    );
    expect((await create(token, { forex_id: eur, condition: "sideways", target: "1" })).code).toBe(
      0,
    );
    expect(await alerts(token)).toHaveLength(0);

    await s.setting("alerts.max_active", "2");
    await create(token, { forex_id: eur, condition: "above", target: "2" });
    await create(token, { forex_id: eur, condition: "above", target: "3" });
    const third = await create(token, { forex_id: eur, condition: "above", target: "4" });
    expect(third.msg).toBe("You can have at most 2 active alerts");
    await s.setting("alerts.max_active", "50");
  });

  it("only its owner removes an alert; a removed alert never fires", async () => {
    const mine = await demo();
    const theirs = await demo();
    const made = await create(mine, {
      forex_id: idOf("EURUSD"),
      condition: "above",
      target: "1.15",
    });
    const refused = await s.post("/api/alerts/delete", { id: made.data.id }, { token: theirs });
    expect(refused.msg).toBe("This alert does not exist any more");
    const removed = await s.post("/api/alerts/delete", { id: made.data.id }, { token: mine });
    expect(removed.msg).toBe("Alert removed");
    expect(await alerts(mine)).toHaveLength(0);
    await tick("EURUSD", 1.16);
    expect(await notices(mine)).toHaveLength(0);
    await tick("EURUSD", 1.1);
  });
});
