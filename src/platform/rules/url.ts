import ipaddr from "ipaddr.js";

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

/**
 * Names that never resolve on the public Internet, as suffixes (the name
 * itself or any name under it): the special-use names of IANA's registry
 * (RFC 6761: localhost, invalid, test, example; RFC 6762 local; RFC 8375
 * home.arpa; RFC 7686 onion; RFC 9476 alt; and the rest of arpa, where no
 * webhook lives), ICANN's private-use internal, the names ICANN will not
 * delegate because private networks use them (corp, home, mail), and names
 * private networks commonly use (lan, intranet, private, localdomain,
 * Kubernetes' svc).
 */
const LOCAL_NAMES = [
  "localhost",
  "localdomain",
  "local",
  "internal",
  "lan",
  "arpa",
  "intranet",
  "private",
  "corp",
  "home",
  "mail",
  "svc",
  "invalid",
  "test",
  "example",
  "onion",
  "alt",
];

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  const literal = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  if (literal.includes(":") && ipaddr.IPv6.isValid(literal))
    return !isPublicAddress(ipaddr.IPv6.parse(literal));
  if (ipaddr.IPv4.isValidFourPartDecimal(literal))
    return !isPublicAddress(ipaddr.IPv4.parse(literal));
  // Anything else with a colon or brackets is a literal that does not parse: refused, not guessed at.
  if (/[:[\]]/.test(host)) return true;
  // An empty label ("localhost..", "127.0.0.1..") is no public DNS name, and would slip past
  // the literal and suffix checks below: refused rather than left to the resolver.
  if (host.split(".").includes("")) return true;
  if (LOCAL_NAMES.some((name) => host === name || host.endsWith(`.${name}`))) return true;
  // A bare name without a dot never resolves publicly.
  return !host.includes(".");
}

/**
 * Whether an address is reachable on the public Internet, by IANA's
 * special-purpose address registries as ipaddr.js keeps them: in IPv4 only
 * plain unicast (not private, loopback, link-local, shared 100.64/10,
 * 192.0.0.0/24, the documentation and benchmarking ranges, multicast,
 * reserved…); in IPv6 only global unicast (2000::/3) outside every special
 * range (Teredo and the rest of 2001::/23, documentation 2001:db8::/32 and
 * 3fff::/20…). Forms that carry an IPv4 address are judged by it:
 * IPv4-mapped and -translated, NAT64's well-known prefix 64:ff9b::/96 (its
 * local-use 64:ff9b:1::/48 is not public) and 6to4 (2002::/16).
 */
function isPublicAddress(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  if (address.kind() === "ipv4") return address.range() === "unicast";
  const v6 = address as ipaddr.IPv6;
  const [g0 = 0, g1 = 0, g2 = 0, , , , g6 = 0, g7 = 0] = v6.parts;
  const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  const range: string = v6.range();
  if (range === "ipv4Mapped" || range === "rfc6145") return isPublicAddress(v4(g6, g7));
  if (range === "rfc6052") return g2 === 0 && isPublicAddress(v4(g6, g7));
  if (range === "6to4") return isPublicAddress(v4(g1, g2));
  return range === "unicast" && (g0 & 0xe000) === 0x2000;
}

function parseV4(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p))) return null;
  const octets = parts.map(Number);
  return octets.every((o) => o <= 255) ? octets : null;
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
