/**
 * The `token` of a booking's calendar-file link: the workspace's uuid (32 hex
 * digits, no dashes) then the booking's own ical token. The link carries no
 * API key, and its booking lives on the workspace's shard: the first part
 * says which one. It is no secret and is not trusted: the booking is looked
 * up in that workspace only, and the rest must equal its stored token.
 */
const LINK_TOKEN = /^([0-9a-f]{32})([0-9a-f]{1,32})$/i;

export const icalLinkToken = (workspaceId: string, icalToken: string) =>
  `${workspaceId.replace(/-/g, "").toLowerCase()}${icalToken}`;

/** The workspace and the booking's token a link names; null for anything else. */
export function parseIcalLinkToken(
  token: string,
): { workspaceId: string; icalToken: string } | null {
  const match = LINK_TOKEN.exec(token);
  if (!match) return null;
  const hex = (match[1] ?? "").toLowerCase();
  const workspaceId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { workspaceId, icalToken: match[2] ?? "" };
}
