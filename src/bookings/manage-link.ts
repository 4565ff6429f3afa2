import { configOf, type Settings } from "../platform/config";
import { ApiError } from "../platform/errors";
import { customerTag, type ManageGrant, signManageToken, verifyManageToken } from "./manage-token";

const DAY_MS = 86_400_000;

/** Where the widget's manage page is served (the token in its query string). */
export const MANAGE_PAGE = "/widget/manage";

/** What a manage link is issued for: a booking's id, its workspace and customer, its end (epoch ms). */
export interface ManagedBooking {
  id: string;
  workspaceId: string;
  customerId: string;
  endAt: number;
}

/** What decides whether a link opens a booking: whose it is now and when it now ends. */
export type LinkedBooking = Pick<ManagedBooking, "customerId" | "endAt">;

/** A link lives until a day after the booking ends (whole seconds, rounded up). */
export const manageExpiry = (endAt: number) => Math.ceil((endAt + DAY_MS) / 1000) * 1000;

/**
 * The booking's manage token for its customer, signed with
 * MANAGE_TOKEN_SECRET; null when the Worker has no secret configured (then no
 * link is issued, and none accepted).
 */
export function manageToken(env: Settings, booking: ManagedBooking): string | null {
  const secret = configOf(env).manageTokenSecret;
  if (!secret) return null;
  return signManageToken(secret, {
    bookingId: booking.id,
    workspaceId: booking.workspaceId,
    customerId: booking.customerId,
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

/** What every link that opens nothing answers, whatever was wrong with it. */
export const invalidLink = () =>
  new ApiError("invalid_token", "The link is invalid or has expired; ask the salon for a new one.");

/**
 * The grant of a manage token this Worker signed; 401 `invalid_token` for
 * anything else, one answer whatever was wrong. Whether it still opens the
 * booking is `assertLinkOpens`'s, once the booking is read.
 */
export function verifiedManageToken(env: Settings, token: string): ManageGrant {
  const secret = configOf(env).manageTokenSecret;
  const grant = secret ? verifyManageToken(secret, token) : null;
  if (!grant) throw invalidLink();
  return grant;
}

/**
 * Whether a verified link still opens the booking as it now is, at `now`: the
 * booking's current state decides, not the link's age. It opens while the
 * booking is still the customer's it was issued to and until a day after the
 * booking's CURRENT end, wherever the booking has moved since (the customer's
 * own move, a publishable key's or staff's): the link in the first e-mail
 * shows the booking at its new time. A booking handed to another customer
 * no longer opens for the links sent to the one before.
 */
export function linkOpens(grant: ManageGrant, booking: LinkedBooking, now: number): boolean {
  if (now >= manageExpiry(booking.endAt)) return false;
  const { bound } = grant;
  return "legacy" in bound || bound.customerTag === customerTag(booking.customerId);
}

/** 401 `invalid_token` (the answer of any refused token) unless the link opens the booking. */
export function assertLinkOpens(
  grant: ManageGrant,
  booking: LinkedBooking,
  now = Date.now(),
): void {
  if (!linkOpens(grant, booking, now)) throw invalidLink();
}
