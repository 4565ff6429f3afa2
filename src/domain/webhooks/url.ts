/**
 * Webhook targets must be public http(s) addresses, so a tenant cannot make the
 * platform call into its own network (SSRF). Workers cannot resolve DNS before
 * fetching, so names are judged as written: IP literals by range, and names that
 * only resolve locally (localhost, .local, .internal…) by suffix.
 */
export function webhookUrlProblem(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Must be an absolute http(s) URL.";
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Must use http or https.";
  if (url.username || url.password) return "May not carry credentials; use headers instead.";
  if (!allowPrivate && isPrivateHost(url.hostname))
    return "Private, loopback and link-local addresses are not allowed.";
  return null;
}

const LOCAL_SUFFIXES = [
  ".localhost",
  ".localdomain",
  ".local",
  ".internal",
  ".lan",
  ".home.arpa",
  ".intranet",
];

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || LOCAL_SUFFIXES.some((s) => host.endsWith(s))) return true;
  if (host.startsWith("[")) return isPrivateV6(host.slice(1, -1));
  if (host.includes(":")) return isPrivateV6(host);
  const v4 = parseV4(host);
  if (v4) return isPrivateV4(v4);
  // A bare name without a dot never resolves publicly.
  return !host.includes(".");
}

function parseV4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
}

function isPrivateV4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
}

/** The eight 16-bit groups of an IPv6 literal (`::` and a trailing dotted quad allowed), or null. */
export function parseV6(text: string): number[] | null {
  const quad = /(?:^|:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  let hex = text;
  if (quad?.[1]) {
    const v4 = parseV4(quad[1]);
    if (!v4) return null;
    const [a = 0, b = 0, c = 0, d = 0] = v4;
    hex = `${text.slice(0, -quad[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = hex.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string | undefined) => (part ? part.split(":") : []);
  const left = groups(halves[0]);
  const right = groups(halves[1]);
  const all = [...left, ...right];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/i.test(g))) return null;
  if (halves.length === 1 ? all.length !== 8 : all.length > 7) return null;
  const zeros = Array.from({ length: 8 - all.length }, () => "0");
  return [...left, ...zeros, ...right].map((g) => Number.parseInt(g, 16));
}

/**
 * Only global unicast (2000::/3) is public, and of that not Teredo (2001::/32,
 * which tunnels to an IPv4 address of its own). Forms that carry an IPv4
 * address are judged by that address: IPv4-compatible (::/96), IPv4-mapped
 * (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96) and
 * 6to4 (2002::/16). Everything else (loopback, unspecified, unique local
 * fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast, NAT64's
 * local-use 64:ff9b:1::/48, discard 100::/64, reserved) is private.
 */
function isPrivateV6(host: string): boolean {
  const g = parseV6(host);
  if (!g) return true;
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const v4 = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255];
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(5) && (g5 === 0 || g5 === 0xffff)) return isPrivateV4(v4(g6, g7));
  if (zeroTo(4) && g4 === 0xffff && g5 === 0) return isPrivateV4(v4(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)
    return isPrivateV4(v4(g6, g7));
  if (g0 === 0x2002) return isPrivateV4(v4(g1, g2));
  if (g0 === 0x2001 && g1 === 0) return true;
  return (g0 & 0xe000) !== 0x2000;
}
