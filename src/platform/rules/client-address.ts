import { parseV6 } from "./url";

/**
 * Who a visitor is, from the address Cloudflare reports. An IPv4 address is
 * one visitor. An IPv6 address is not: a home or mobile network gets a whole
 * /64 (2^64 addresses) and a client may pick a new one for every request, so
 * every per-address limit and hold cap counts the /64, written canonically
 * (`2001:db8:aa:1::/64`) whatever spelling the address came in. An
 * IPv4-mapped address (`::ffff:192.0.2.7`) is its IPv4 address. Anything
 * unparseable is kept as it is (it can only be Cloudflare's or a test's).
 */
export function visitorAddress(address: string): string {
  if (!address.includes(":")) return address;
  const groups = parseV6(address);
  if (!groups) return address;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return [g6 >> 8, g6 & 255, g7 >> 8, g7 & 255].join(".");
  }
  const prefix = groups.slice(0, 4).map((g) => g.toString(16));
  // The four low groups are zero: the prefix always ends in `::`.
  while (prefix.length > 1 && prefix[prefix.length - 1] === "0") prefix.pop();
  return `${prefix.join(":")}::/64`;
}
