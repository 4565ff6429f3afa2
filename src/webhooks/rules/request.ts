/**
 * What a delivery puts on the wire besides the body: the URL with the
 * webhook's parameters, and its own headers. The request schemas use the same
 * rules, so whatever the API accepts can be sent.
 */
export interface NameValue {
  name: string;
  value: string;
}

/**
 * Header values a delivery can send (RFC 9110 field content, and the Fetch
 * standard's byte strings): visible ASCII, spaces, tabs and Latin-1, nothing
 * above U+00FF; no CR, LF or other control characters. (workerd itself refuses
 * only CR, LF and NUL, and sends anything beyond ASCII as UTF-8.)
 */
export const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/** HTTP token characters (RFC 9110). */
export const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/**
 * The longest URL a delivery sends, parameters included and percent-encoded:
 * 8 KiB request lines are the common default of receivers' servers (nginx,
 * Node) and well inside what Workers' fetch sends.
 */
export const MAX_DELIVERY_URL = 8192;

/** The webhook's URL with its parameters appended to the query string. */
export function deliveryUrl(url: string, parameters: readonly NameValue[]): URL {
  const target = new URL(url);
  for (const p of parameters) target.searchParams.append(p.name, p.value);
  return target;
}

/** Why these headers cannot be sent, or null. */
export function headersProblem(headers: readonly NameValue[]): string | null {
  for (const h of headers) {
    if (!HEADER_NAME.test(h.name)) return `header name ${JSON.stringify(h.name)} is not valid`;
    if (!HEADER_VALUE.test(h.value)) return `header ${h.name} has a value that cannot be sent`;
  }
  return null;
}
