/**
 * A web origin as browsers send it in the `Origin` header: scheme, host and a
 * non-default port, nothing else. Anything with a path, query, fragment or
 * credentials is not an origin and is refused rather than silently cut down,
 * so a key is never allowed for a site its creator did not name.
 */
export function normaliseOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password || url.search || url.hash) return null;
  // A trailing slash is the only path a pasted origin may carry.
  if (url.pathname !== "/" || /[?#]/.test(value)) return null;
  return url.origin;
}

/** Whether a request's `Origin` header names one of `allowed` (already normalised). */
export function isAllowedOrigin(origin: string, allowed: readonly string[]): boolean {
  const normal = normaliseOrigin(origin);
  return normal !== null && allowed.includes(normal);
}
