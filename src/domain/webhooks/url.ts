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

const LOCAL_SUFFIXES = [".localhost", ".local", ".internal", ".lan", ".home.arpa", ".intranet"];

export function isPrivateHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host === "localhost" || LOCAL_SUFFIXES.some((s) => host.endsWith(s))) return true;
  if (host.startsWith("[")) return isPrivateV6(host.slice(1, -1));
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

function isPrivateV6(host: string): boolean {
  const h = host.toLowerCase();
  if (h === "::" || h === "::1") return true;
  // IPv4-mapped (::ffff:10.0.0.1, which URL normalises to ::ffff:a00:1).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (mapped) {
    const hi = Number.parseInt(mapped[1] ?? "0", 16);
    const lo = Number.parseInt(mapped[2] ?? "0", 16);
    return isPrivateV4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  if (h.startsWith("::ffff:")) return true;
  const first = Number.parseInt(h.split(":")[0] || "0", 16);
  return (
    (first & 0xfe00) === 0xfc00 || // fc00::/7 unique local
    (first & 0xffc0) === 0xfe80 || // fe80::/10 link-local
    (first & 0xff00) === 0xff00 // multicast
  );
}
