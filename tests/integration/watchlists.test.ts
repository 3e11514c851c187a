/**
 * Watchlists over real HTTP on a fresh store: the first star makes Favourites (first in the order,
 * no stored name), starring twice adds nothing, named lists are made, renamed, reordered and
 * removed, instruments reordered and taken off; the limits (10 lists, 50 instruments) hold; a bad
 * field answers 400 with its translated message and an unknown instrument is refused by name; a
 * refusal changes nothing; one account never sees or changes another's lists.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WATCHLIST_MAX_ITEMS, WATCHLIST_MAX_LISTS } from "@contract/api/watchlists-rules";
import { insertInstrumentIfMissing } from "../../upstream/modules/market/store.js";
import { startUpstream, type Server } from "./upstream-harness.js";

let s: Server;
let codes: string[];

beforeAll(async () => {
  s = await startUpstream({
    tmpPrefix: "tp-watchlists-",
    config: { devOutbox: true, smtpUrl: null },
  });
  const list = await s.get("/v1/api/forex/trade_list");
  codes = (list.data as { Code: string }[]).map((i) => i.Code);
}, 60_000);

afterAll(async () => {
  await s?.close();
});

async function demo(): Promise<string> {
  const c = await s.post("/api/user/createAccountDemoForU", {});
  return (await s.post("/api/user/loginForU", { demo_id: c.data.demo_id })).data.token;
}

type List = { id: number; kind: string; name: string; items: { forex_id: number; code: string }[] };
const lists = (token: string) => s.get<List[]>("/api/watchlists", { token }).then((r) => r.data);
const post = (token: string, p: string, body: Record<string, string | number>) =>
  s.post<List[]>(`/api/watchlists${p}`, body, { token });
const codesOf = (l: List) => l.items.map((i) => i.code);

describe("watchlists", () => {
  it("the first star makes Favourites; starring twice adds nothing; unstarring takes it off", async () => {
    const token = await demo();
    expect(await lists(token)).toEqual([]);
    const first = await post(token, "/items/add", { code: "EURUSD" });
    expect(first.code).toBe(1);
    expect(first.msg).toBe("Added to Favourites");
    expect(first.data).toEqual([
      {
        id: expect.any(Number),
        kind: "favourites",
        name: "",
        items: [{ forex_id: expect.any(Number), code: "EURUSD" }],
      },
    ]);
    // Any letter case names the instrument; twice is once.
    await post(token, "/items/add", { code: "gbpusd" });
    const again = await post(token, "/items/add", { code: "EURUSD" });
    expect(again.code).toBe(1);
    expect(codesOf(again.data[0])).toEqual(["EURUSD", "GBPUSD"]);
    const off = await post(token, "/items/remove", { code: "EURUSD" });
    expect(off.msg).toBe("Removed from Favourites");
    expect(codesOf(off.data[0])).toEqual(["GBPUSD"]);
    // Off twice is no change either.
    expect((await post(token, "/items/remove", { code: "EURUSD" })).code).toBe(1);
    expect(codesOf((await lists(token))[0])).toEqual(["GBPUSD"]);
  });

  it("named lists are made, renamed, reordered and removed; Favourites stays first", async () => {
    const token = await demo();
    const made = await post(token, "/create", { name: "  Metals  " });
    expect(made.msg).toBe("List created");
    expect(made.data).toEqual([
      { id: expect.any(Number), kind: "custom", name: "Metals", items: [] },
    ]);
    await post(token, "/create", { name: "Crypto" });
    await post(token, "/create", { name: "Indices" });
    // Favourites made after the named lists still comes first.
    await post(token, "/items/add", { code: "EURUSD" });
    let all = await lists(token);
    expect(all.map((l) => l.name || l.kind)).toEqual(["favourites", "Metals", "Crypto", "Indices"]);
    const [fav, metals, crypto] = all;

    const taken = await post(token, "/create", { name: "metals" });
    expect(taken.code).toBe(0);
    expect(taken.msg).toBe("You already have a list named “metals”");
    expect((await post(token, "/rename", { id: crypto.id, name: "Coins" })).msg).toBe(
      "List renamed",
    );
    expect((await post(token, "/rename", { id: fav.id, name: "Mine" })).msg).toBe(
      "Favourites cannot be renamed, moved or removed",
    );
    expect((await post(token, "/move", { id: fav.id, direction: "down" })).code).toBe(0);

    const up = await post(token, "/move", { id: crypto.id, direction: "up" });
    expect(up.msg).toBe("Order saved");
    expect(up.data.map((l) => l.name || l.kind)).toEqual([
      "favourites",
      "Coins",
      "Metals",
      "Indices",
    ]);
    // At the top of the named lists it stays (Favourites is not passed).
    await post(token, "/move", { id: crypto.id, direction: "up" });
    await post(token, "/move", { id: metals.id, direction: "down" });
    all = await lists(token);
    expect(all.map((l) => l.name || l.kind)).toEqual(["favourites", "Coins", "Indices", "Metals"]);

    await post(token, "/items/add", { code: "XAUUSD", list_id: metals.id });
    const removed = await post(token, "/delete", { id: metals.id });
    expect(removed.msg).toBe("List removed");
    expect(removed.data.map((l) => l.name || l.kind)).toEqual(["favourites", "Coins", "Indices"]);
    expect((await post(token, "/delete", { id: fav.id })).code).toBe(0);
    expect((await post(token, "/delete", { id: metals.id })).msg).toBe(
      "This list does not exist any more",
    );
  });

  it("instruments keep the owner's order and move one place at a time", async () => {
    const token = await demo();
    const made = await post(token, "/create", { name: "FX" });
    const id = made.data[0].id;
    for (const code of ["EURUSD", "GBPUSD", "USDJPY"])
      await post(token, "/items/add", { code, list_id: id });
    let r = await post(token, "/items/move", { list_id: id, code: "USDJPY", direction: "up" });
    expect(codesOf(r.data[0])).toEqual(["EURUSD", "USDJPY", "GBPUSD"]);
    r = await post(token, "/items/move", { list_id: id, code: "EURUSD", direction: "up" });
    expect(r.code).toBe(1);
    expect(codesOf(r.data[0])).toEqual(["EURUSD", "USDJPY", "GBPUSD"]);
    r = await post(token, "/items/move", { list_id: id, code: "EURUSD", direction: "down" });
    expect(codesOf(r.data[0])).toEqual(["USDJPY", "EURUSD", "GBPUSD"]);
    r = await post(token, "/items/remove", { code: "EURUSD", list_id: id });
    expect(r.msg).toBe("Removed from the list");
    expect(codesOf(r.data[0])).toEqual(["USDJPY", "GBPUSD"]);
    // An instrument added again goes to the end.
    r = await post(token, "/items/add", { code: "EURUSD", list_id: id });
    expect(r.msg).toBe("Added to the list");
    expect(codesOf(r.data[0])).toEqual(["USDJPY", "GBPUSD", "EURUSD"]);
    r = await post(token, "/items/move", { list_id: id, code: "XAUUSD", direction: "up" });
    expect(r.msg).toBe("This instrument is not in the list");
  });

  it("holds the limits: 10 lists with Favourites, 50 instruments a list", async () => {
    const token = await demo();
    await post(token, "/items/add", { code: "EURUSD" });
    for (let k = 1; k < WATCHLIST_MAX_LISTS; k++) {
      expect((await post(token, "/create", { name: `List ${k}` })).code).toBe(1);
    }
    const over = await post(token, "/create", { name: "One more" });
    expect(over.code).toBe(0);
    expect(over.msg).toBe(`You can have at most ${WATCHLIST_MAX_LISTS} lists`);
    expect(await lists(token)).toHaveLength(WATCHLIST_MAX_LISTS);

    // A list full of instruments: the seed has fewer than 50, so this test's store gets more
    // (enabled, in the first category; the market running since start-up does not quote them).
    const db = s.up.ctx.db;
    const extra = WATCHLIST_MAX_ITEMS + 1 - codes.length;
    const category = (db.prepare("SELECT id FROM categories ORDER BY id").get() as { id: number })
      .id;
    for (let k = 0; k < extra; k++)
      insertInstrumentIfMissing(db, {
        code: `WLTEST${k}`,
        showCode: `WLTEST${k}`,
        logo: "",
        categoryId: category,
        session: "crypto",
        quoteCurrency: "USD",
        pricePrecision: 2,
        contNum: "1",
        multiples: "[]",
        feeRate: "0",
        basePrice: 1,
        volatility: 0.1,
        sort: 1000 + k,
      });
    const all = [...codes, ...Array.from({ length: extra }, (_, k) => `WLTEST${k}`)];
    const other = await demo();
    const id = (await post(other, "/create", { name: "Full" })).data[0].id;
    for (const code of all.slice(0, WATCHLIST_MAX_ITEMS))
      expect((await post(other, "/items/add", { code, list_id: id })).code).toBe(1);
    const full = await post(other, "/items/add", { code: all[WATCHLIST_MAX_ITEMS], list_id: id });
    expect(full.code).toBe(0);
    expect(full.msg).toBe(`A list holds at most ${WATCHLIST_MAX_ITEMS} instruments`);
    // One already there is still no change, not a refusal.
    expect((await post(other, "/items/add", { code: all[0], list_id: id })).code).toBe(1);
    expect(codesOf((await lists(other))[0])).toEqual(all.slice(0, WATCHLIST_MAX_ITEMS));
  });

  it("refuses bad fields with 400, unknown instruments by name, and changes nothing", async () => {
    const token = await demo();
    await post(token, "/items/add", { code: "EURUSD" });
    const before = await lists(token);
    const raw = async (p: string, body: Record<string, string>, lang = "en") => {
      const r = await fetch(`${s.base}/api/watchlists${p}`, {
        method: "POST",
        headers: {
          authorization: token,
          lang,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams(body).toString(),
      });
      return { status: r.status, body: (await r.json()) as { code: number; msg: string } };
    };
    let r = await raw("/items/add", { code: "EUR USD<script>" });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe("Choose an instrument");
    r = await raw("/items/add", { code: "EURUSD<" }, "de");
    expect(r.body.msg).toBe("Wählen Sie ein Instrument");
    r = await raw("/create", { name: "   " });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe("Enter a name for the list");
    r = await raw("/create", { name: "x".repeat(31) });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe("A list's name has at most 30 characters");
    r = await raw("/move", { id: String(before[0].id), direction: "sideways" });
    expect(r.status).toBe(400);
    expect(r.body.msg).toBe("Choose up or down");
    r = await raw("/items/add", { code: "NOSUCH" });
    expect(r.body).toMatchObject({ code: 0, msg: "There is no instrument NOSUCH to list" });
    r = await raw("/items/add", { code: "NOSUCH" }, "ru");
    expect(r.body.msg).toBe("Инструмента NOSUCH нет в торговле");
    expect(await lists(token)).toEqual(before);
  });

  it("one account never sees or changes another's lists", async () => {
    const mine = await demo();
    const theirs = await demo();
    const made = await post(mine, "/create", { name: "Private" });
    const id = made.data[0].id;
    await post(mine, "/items/add", { code: "EURUSD", list_id: id });
    expect(await lists(theirs)).toEqual([]);
    for (const [p, body] of [
      ["/rename", { id, name: "Taken" }],
      ["/delete", { id }],
      ["/move", { id, direction: "down" }],
      ["/items/add", { code: "GBPUSD", list_id: id }],
      ["/items/remove", { code: "EURUSD", list_id: id }],
      ["/items/move", { code: "EURUSD", list_id: id, direction: "up" }],
    ] as const) {
      const r = await post(theirs, p, body);
      expect(r.msg, p).toBe("This list does not exist any more");
    }
    expect(await lists(mine)).toEqual(
      made.data.map((l) => ({ ...l, items: [expect.objectContaining({ code: "EURUSD" })] })),
    );
    expect(await lists(theirs)).toEqual([]);
    // Without a session nothing is read.
    expect((await s.get("/api/watchlists")).code).not.toBe(1);
  });
});
