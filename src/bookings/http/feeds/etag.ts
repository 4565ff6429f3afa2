import { sha256Hex } from "../../../tenancy/api-keys";

/**
 * A strong ETag from the content itself: the feed holds nothing that depends on when it is made
 * (stamps come from the records), so the same records give the same bytes and the same tag, and
 * any change (a booking's version, one leaving the window) gives another.
 */
export const contentTag = async (text: string) => `"${(await sha256Hex(text)).slice(0, 32)}"`;

/**
 * If-None-Match (RFC 9110 §13.1.2): `*`, or a list of tags compared weakly (a `W/` prefix on
 * either side is ignored).
 */
export function matchesTag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => tag.trim() === "*" || strip(tag) === strip(etag));
}
