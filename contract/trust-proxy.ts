/**
 * What a trust-proxy setting means (the web's TRUST_PROXY, the upstream's UPSTREAM_TRUST_PROXY):
 * which peers may name the client's address in X-Forwarded-For. Both programs hand the parsed
 * value to proxy-addr (Express's `trust proxy`, Fastify's `trustProxy`), which reads a number as
 * hops, a boolean as all or none, and a string as a list of addresses and ranges; text such as
 * "1" given as a string would be read as an address list and trust nobody.
 */
import { z } from "zod";

const IPV4 = z.string().ip({ version: "v4" });
const IPV6 = z.string().ip({ version: "v6" });

export type TrustProxy = boolean | number | string;

/** What a refused value is told. */
export const TRUST_PROXY_RULE =
  "must be false, true, a number of hops, or a comma-separated list of addresses, CIDR ranges, loopback, linklocal or uniquelocal";

/** One entry of a list: an address, a CIDR range or a named range. */
function isProxyEntry(v: string): boolean {
  if (["loopback", "linklocal", "uniquelocal"].includes(v)) return true;
  const [addr, bits, ...rest] = v.split("/");
  const kind = IPV4.safeParse(addr).success ? 4 : IPV6.safeParse(addr).success ? 6 : 0;
  if (kind === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (kind === 4 ? 32 : 128);
}

/**
 * false (0, none, no: never trust X-Forwarded-For), true (all: every peer), a number of proxy
 * hops, or a comma-separated list of addresses, CIDR ranges and named ranges; null for anything
 * else (a start-up refusal).
 */
export function parseTrustProxy(raw: string): TrustProxy | null {
  const low = raw.trim().toLowerCase();
  if (low === "false" || low === "none" || low === "no" || low === "0") return false;
  if (low === "true" || low === "all") return true;
  if (/^\d{1,2}$/.test(low)) return Number(low);
  const list = low.split(",").map((x) => x.trim());
  return list.every(isProxyEntry) ? list.join(",") : null;
}
