/**
 * The copiers of the copy-trading benches (bench:copy, bench:cluster's failover-load): accounts
 * made straight in the store, each with 1,000 USD deposited through the money service, copying one
 * provider with 100 to 900 USD (copyAmountUsd: proportional, multiplier 1, copy stop-loss 95 % so
 * that none ends). The amounts differ as real copiers' do, so a provider's trade gives its copies
 * several lot sizes (with a 10,000 USD provider trading 1 lot: 0.01 to 0.09).
 */
import { ORDER_MODE, ORDER_TYPE } from "@contract/enums";
import type { DB } from "../../upstream/platform/db.js";
import type { Engine } from "../../upstream/modules/trading/engine.js";
import type { ManualFeed } from "../../upstream/modules/market/manual-feed.js";
import { dec } from "../../upstream/modules/money/decimal.js";
import type { CopyTrading } from "../../upstream/modules/copy/service.js";
import type { MoneyService } from "../../upstream/modules/money/service.js";

/** Accounts made per transaction. */
const BATCH = 500;

/** The amount copier `i` copies with, USD: 100 to 900, in steps of 100. */
export function copyAmountUsd(i: number): number {
  return 100 + ((i * 37) % 9) * 100;
}

/**
 * Copier `i`'s invite code: one newInviteCode never makes (it holds a 0, which the alphabet of
 * generated codes leaves out). A code such as `BC2345` was once generated for the copy account
 * made just before copier 2345, whose own insert then failed on the unique code (about one bench
 * run in ten).
 */
function benchInviteCode(i: number): string {
  return `BC0${i}`;
}

/** `n` copiers of `provider`; their e-mail addresses are bc0@example.com, bc1@… */
export function makeCopiers(
  db: DB,
  money: MoneyService,
  copying: CopyTrading,
  provider: number,
  n: number,
): void {
  for (let from = 0; from < n; from += BATCH) {
    db.transaction(() => {
      for (let i = from; i < Math.min(n, from + BATCH); i++) {
        const userId = Number(
          db
            .prepare(
              "INSERT INTO users (uid, email, invite_code, is_demo, created_at) VALUES (?, ?, ?, 0, ?)",
            )
            .run(`bc${i}`, `bc${i}@example.com`, benchInviteCode(i), Date.now()).lastInsertRowid,
        );
        money.post({ userId, amountMicro: 1000e6, kind: "deposit" });
        copying.start(
          userId,
          {
            providerId: provider,
            amount: String(copyAmountUsd(i)),
            mode: "proportional",
            multiple: "1",
            stopLossPct: 95,
            copyOpen: false,
          },
          null,
        );
      }
    })();
  }
}

/** The provider's market buy of 1 lot of EURUSD at 1:100, which every copy mirrors; the order. */
export function providerBuys(engine: Engine, feed: ManualFeed, provider: number) {
  return engine.submit(provider, {
    side: ORDER_TYPE.BUY,
    status: ORDER_MODE.MARKET,
    instrumentId: feed.quote("EURUSD")!.id,
    lots: dec("1"),
    leverage: 100,
    targetPrice: null,
    takeProfit: null,
    stopLoss: null,
  });
}
