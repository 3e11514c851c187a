/**
 * Whether a coin address belongs to its network, checksum included, so that a mistyped address is
 * refused when it is saved instead of losing a withdrawal:
 * - TRC20: base58check of 21 bytes starting 0x41 ("T...");
 * - ERC20 and BEP20: 0x and 40 hex digits; a mixed-case address must carry its EIP-55 checksum
 *   (all lower or all upper case carries none and is accepted);
 * - BTC: base58check P2PKH (version 0x00, "1...") or P2SH (0x05, "3..."), or a segwit address:
 *   bech32 for version 0 ("bc1q..."), bech32m for versions 1 to 16 ("bc1p...").
 * Other networks: 8 to 128 plain characters (no checksum is known to this server).
 */
import bs58check from "bs58check";
import { bech32, bech32m } from "bech32";
import { keccak_256 } from "@noble/hashes/sha3.js";

const TRON_PREFIX = 0x41;
const BTC_P2PKH = 0x00;
const BTC_P2SH = 0x05;
/** A base58check payload: version byte and a 20-byte hash. */
const HASH_PAYLOAD_BYTES = 21;

function base58Payload(address: string): Uint8Array | null {
  try {
    return bs58check.decode(address);
  } catch {
    return null;
  }
}

function tronValid(address: string): boolean {
  const p = base58Payload(address);
  return p !== null && p.length === HASH_PAYLOAD_BYTES && p[0] === TRON_PREFIX;
}

/** EIP-55: a hex digit is upper case exactly when its nibble of keccak256(lower-case hex) is >= 8. */
function eip55Valid(address: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return false;
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return true;
  const hash = keccak_256(new TextEncoder().encode(hex.toLowerCase()));
  for (let i = 0; i < hex.length; i++) {
    const nibble = (hash[i >> 1] >> (i % 2 === 0 ? 4 : 0)) & 0xf;
    const c = hex[i];
    if (/[a-f]/i.test(c) && nibble >= 8 !== (c === c.toUpperCase())) return false;
  }
  return true;
}

function segwitValid(address: string): boolean {
  const lower = address.toLowerCase();
  // Mixed case is never a valid bech32 string.
  if (address !== lower && address !== address.toUpperCase()) return false;
  for (const codec of [bech32, bech32m]) {
    const d = codec.decodeUnsafe(lower);
    if (!d || d.prefix !== "bc" || d.words.length === 0) continue;
    const version = d.words[0];
    // Version 0 uses bech32, versions 1 to 16 bech32m (BIP-350).
    if ((version === 0) !== (codec === bech32) || version > 16) continue;
    const program = codec.fromWordsUnsafe(d.words.slice(1));
    if (!program || program.length < 2 || program.length > 40) continue;
    if (version === 0 && program.length !== 20 && program.length !== 32) continue;
    return true;
  }
  return false;
}

function btcValid(address: string): boolean {
  if (/^bc1/i.test(address)) return segwitValid(address);
  const p = base58Payload(address);
  return p !== null && p.length === HASH_PAYLOAD_BYTES && (p[0] === BTC_P2PKH || p[0] === BTC_P2SH);
}

const CHECKS: Record<string, (address: string) => boolean> = {
  TRC20: tronValid,
  ERC20: eip55Valid,
  BEP20: eip55Valid,
  BTC: btcValid,
};

/** Whether `address` is an address of `network` (the protocol, or the coin's code without one). */
export function validAddress(network: string, address: string): boolean {
  const check = CHECKS[network.toUpperCase()];
  return check ? check(address) : /^[A-Za-z0-9:_-]{8,128}$/.test(address);
}
