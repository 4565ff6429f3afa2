import { configOf, type Settings } from "../config";
import { ApiError } from "./errors";
import { type ManageClaims, signManageToken, verifyManageToken } from "./manage-token";

const DAY_MS = 86_400_000;

/** Where the widget's manage page is served (the token in its query string). */
export const MANAGE_PAGE = "/widget/manage";

/** What a manage link is issued for: a booking's id, its workspace, its start and end (epoch ms). */
export interface ManagedBooking {
  id: string;
  workspaceId: string;
  startAt: number;
  endAt: number;
}

/** A link lives until a day after the booking ends (whole seconds, rounded up). */
export const manageExpiry = (endAt: number) => Math.ceil((endAt + DAY_MS) / 1000) * 1000;

/**
 * The booking's manage token for its current start, signed with
 * MANAGE_TOKEN_SECRET; null when the Worker has no secret configured (then no
 * link is issued, and none accepted).
 */
export function manageToken(env: Settings, booking: ManagedBooking): string | null {
  const secret = configOf(env).manageTokenSecret;
  if (!secret) return null;
  return signManageToken(secret, {
    bookingId: booking.id,
    workspaceId: booking.workspaceId,
    startAt: booking.startAt,
  });
}

/**
 * The `manage_url` of a booking's messages: the widget's manage page at
 * `origin` (e.g. `https://api.salon.example`) with the booking's token; null
 * without a configured secret.
 */
export function manageUrl(env: Settings, origin: string, booking: ManagedBooking): string | null {
  const token = manageToken(env, booking);
  return token && manageUrlOf(origin, token);
}

export const manageUrlOf = (origin: string, token: string) =>
  `${origin}${MANAGE_PAGE}?token=${token}`;

const refused = () =>
  new ApiError("invalid_token", "The link is invalid or has expired; ask the salon for a new one.");

/**
 * The claims of a manage token this Worker signed; 401 `invalid_token` for
 * anything else, one answer whatever was wrong. Whether it still opens the
 * booking is `assertLinkOpens`'s, once the booking is read.
 */
export function verifiedManageToken(env: Settings, token: string, now = Date.now()): ManageClaims {
  const secret = configOf(env).manageTokenSecret;
  const claims = secret ? verifyManageToken(secret, token, now) : null;
  if (!claims) throw refused();
  return claims;
}

/**
 * Whether a verified link still opens the booking as it now is, at `now`: the
 * booking is still at the time the link was issued for (a move, by anyone,
 * revokes the links issued before it; the messages announcing the new time
 * and the re-written reminders carry new ones), and a day has not passed
 * since its current end.
 */
export function linkOpens(
  claims: ManageClaims,
  booking: { startAt: number; endAt: number },
  now: number,
): boolean {
  const expiresAt = manageExpiry(booking.endAt);
  if (now >= expiresAt) return false;
  const { bound } = claims;
  return "startAt" in bound
    ? bound.startAt === Math.floor(booking.startAt / 1000) * 1000
    : bound.expiresAt === expiresAt;
}

/** 401 `invalid_token` (the answer of any refused token) unless the link opens the booking. */
export function assertLinkOpens(
  claims: ManageClaims,
  booking: { startAt: number; endAt: number },
  now = Date.now(),
): void {
  if (!linkOpens(claims, booking, now)) throw refused();
}
