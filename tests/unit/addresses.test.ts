/**
 * Coin addresses are checked with their network's checksum, so one mistyped character is refused
 * when the address is saved rather than losing a withdrawal.
 */
import { openTestStore } from "../support/test-store.js";
import { describe, expect, it } from "vitest";
import bs58check from "bs58check";
import { bech32, bech32m } from "bech32";
import { validAddress } from "../../upstream/modules/money/addresses.js";
import { migrate } from "../../upstream/platform/db.js";

/** Changes the character at `i` to another of the same alphabet. */
const typo = (s: string, i: number, alphabet: string) => {
  const c = s[i];
  const other = alphabet[(alphabet.indexOf(c) + 1) % alphabet.length];
  return s.slice(0, i) + other + s.slice(i + 1);
};
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

describe("coin addresses", () => {
  it("TRC20: base58check with the TRON prefix", () => {
    const good = "TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk";
    expect(validAddress("TRC20", good)).toBe(true);
    expect(validAddress("trc20", good)).toBe(true);
    for (const i of [1, 10, 20, 33])
      expect(validAddress("TRC20", typo(good, i, BASE58))).toBe(false);
    // A valid bitcoin address is base58check too, but not with TRON's prefix.
    expect(validAddress("TRC20", "1BoatSLRHtKNngkdXEeobR76b53LETtpyT")).toBe(false);
    expect(validAddress("TRC20", "")).toBe(false);
  });

  it("ERC20 and BEP20: 40 hex digits; mixed case must carry the EIP-55 checksum", () => {
    const good = "0x52908400098527886E0F7030069857D2E4169EE7";
    for (const net of ["ERC20", "BEP20"]) {
      expect(validAddress(net, good)).toBe(true);
      expect(validAddress(net, good.toLowerCase())).toBe(true);
      expect(validAddress(net, "0x" + good.slice(2).toUpperCase())).toBe(true);
      // One letter's case flipped breaks the checksum.
      expect(validAddress(net, good.replace("E0F", "e0F"))).toBe(false);
      expect(validAddress(net, good.slice(0, 41))).toBe(false);
      expect(validAddress(net, good.replace("0x", "0X"))).toBe(false);
    }
  });

  it("BTC: legacy and script base58check, segwit bech32 (v0) and bech32m (v1)", () => {
    expect(validAddress("BTC", "1BoatSLRHtKNngkdXEeobR76b53LETtpyT")).toBe(true);
    expect(validAddress("BTC", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy")).toBe(true);
    expect(validAddress("BTC", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq")).toBe(true);
    expect(validAddress("BTC", "BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ")).toBe(true);
    expect(
      validAddress("BTC", "bc1p5d7rjq7g6rdk2yhzks9smlaqtedr4dekq08ge8ztwac72sfr9rusxg3297"),
    ).toBe(true);

    expect(validAddress("BTC", typo("1BoatSLRHtKNngkdXEeobR76b53LETtpyT", 8, BASE58))).toBe(false);
    expect(validAddress("BTC", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdr")).toBe(false);
    // Mixed case, another network's prefix (testnet), and a TRON address.
    expect(validAddress("BTC", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdQ")).toBe(false);
    expect(validAddress("BTC", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx")).toBe(false);
    expect(validAddress("BTC", "TJ8GzYaHquqyWfQH8bCeRBwz6Zmv3BboKk")).toBe(false);
  });

  it("other networks: plain characters of a sensible length", () => {
    expect(validAddress("SOL", "7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV")).toBe(true);
    expect(validAddress("SOL", "short")).toBe(false);
    expect(validAddress("SOL", "has space inside it")).toBe(false);
  });

  it("every seeded deposit channel carries a valid address of its network", () => {
    const db = openTestStore();
    migrate(db);
    const rows = db.prepare("SELECT protocol_code, address FROM charge_channels").all() as {
      protocol_code: string;
      address: string;
    }[];
    expect(rows.length).toBeGreaterThanOrEqual(4);
    for (const r of rows)
      expect([r.protocol_code, validAddress(r.protocol_code, r.address)]).toEqual([
        r.protocol_code,
        true,
      ]);
  });
});

describe("coin addresses: the checks' edges", () => {
  /** A base58check text of a version byte and `n` - 1 payload bytes. */
  const b58 = (version: number, n = 21) => {
    const bytes = new Uint8Array(n).fill(7);
    bytes[0] = version;
    return bs58check.encode(bytes);
  };
  /** A segwit address of `version` with a program of `n` bytes, in bech32 or bech32m. */
  const segwit = (version: number, n: number, codec = version === 0 ? bech32 : bech32m) =>
    codec.encode("bc", [version, ...codec.toWords(new Uint8Array(n).fill(9))]);

  it("TRC20 and legacy BTC: exactly 21 bytes with their version byte", () => {
    expect(validAddress("TRC20", b58(0x41))).toBe(true);
    expect(validAddress("TRC20", b58(0x41, 22))).toBe(false);
    expect(validAddress("TRC20", b58(0x41, 20))).toBe(false);
    expect(validAddress("BTC", b58(0x00))).toBe(true);
    expect(validAddress("BTC", b58(0x05))).toBe(true);
    expect(validAddress("BTC", b58(0x05, 22))).toBe(false);
    expect(validAddress("BTC", b58(0x06))).toBe(false);
    expect(validAddress("BTC", b58(0x41))).toBe(false);
    // A legacy address that happens to contain "bc1" is not a segwit one.
    expect(validAddress("BTC", "1Ebc1PVZn8oAqLRcKNoSbFRrXnydY4SC4u")).toBe(true);
  });

  it("BTC segwit: v0 with bech32 and a 20 or 32 byte program, v1 to v16 with bech32m and 2 to 40 bytes", () => {
    expect(validAddress("BTC", segwit(0, 20))).toBe(true);
    expect(validAddress("BTC", segwit(0, 32))).toBe(true);
    expect(validAddress("BTC", segwit(0, 21))).toBe(false);
    expect(validAddress("BTC", segwit(0, 20, bech32m))).toBe(false);
    expect(validAddress("BTC", segwit(1, 32))).toBe(true);
    expect(validAddress("BTC", segwit(1, 32, bech32))).toBe(false);
    expect(validAddress("BTC", segwit(16, 2))).toBe(true);
    expect(validAddress("BTC", segwit(16, 40))).toBe(true);
    expect(validAddress("BTC", segwit(17, 32))).toBe(false);
    expect(validAddress("BTC", segwit(1, 1))).toBe(false);
    expect(validAddress("BTC", segwit(1, 41))).toBe(false);
    // Upper case is bech32 too; another human-readable part is another network.
    expect(validAddress("BTC", segwit(1, 32).toUpperCase())).toBe(true);
    // "bc11...": bech32 of the human-readable part "bc1", not "bc".
    expect(
      validAddress("BTC", bech32.encode("bc1", [0, ...bech32.toWords(new Uint8Array(20))])),
    ).toBe(false);
    expect(
      validAddress("BTC", bech32m.encode("bt", [1, ...bech32m.toWords(new Uint8Array(32))])),
    ).toBe(false);
  });

  it("ERC20: an all upper-case hex address carries no checksum; one wrong case among many fails", () => {
    const good = "0x8f3Cf7ad23Cd3CaDbD9735AFf958023239c6A063";
    // Every letter of a checksummed address flipped alone breaks it.
    for (let i = 2; i < good.length; i++) {
      const c = good[i];
      if (!/[a-f]/i.test(c)) continue;
      const flipped = c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase();
      expect(validAddress("ERC20", good.slice(0, i) + flipped + good.slice(i + 1)), `${i}`).toBe(
        false,
      );
    }
    expect(validAddress("ERC20", "0x" + good.slice(2).toUpperCase())).toBe(true);
    expect(validAddress("ERC20", good.toLowerCase())).toBe(true);
    expect(validAddress("ERC20", "0x" + "G".repeat(40))).toBe(false);
    expect(validAddress("ERC20", good + "0")).toBe(false);
    expect(validAddress("ERC20", good.toLowerCase() + "0")).toBe(false);
    expect(validAddress("ERC20", "1" + good.toLowerCase())).toBe(false);
  });

  it("other networks: 8 to 128 of letters, digits, ':', '_' and '-'", () => {
    expect(validAddress("XRP", "a".repeat(8))).toBe(true);
    expect(validAddress("XRP", "a".repeat(7))).toBe(false);
    expect(validAddress("XRP", "a".repeat(128))).toBe(true);
    expect(validAddress("XRP", "a".repeat(129))).toBe(false);
    expect(validAddress("XRP", "rAbc:12_3-4")).toBe(true);
    expect(validAddress("XRP", "rAbc12345!")).toBe(false);
    expect(validAddress("XRP", "!rAbc12345")).toBe(false);
  });
});
