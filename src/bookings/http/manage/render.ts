import type { z } from "@hono/zod-openapi";
import type { Settings } from "../../../platform/config";
import { toIso } from "../../../platform/clock";
import { type ManagedBooking, manageExpiry, manageToken, manageUrlOf } from "../../manage-link";
import type { ManageLinkSchema } from "./schema";

/**
 * A fresh link for the booking as it now is: a reschedule moves its end, and
 * with it the day the link expires, so the page swaps to this token.
 */
export async function renderManageLink(
  env: Settings,
  origin: string,
  booking: ManagedBooking,
): Promise<z.infer<typeof ManageLinkSchema>> {
  const token = manageToken(env, booking);
  // The request's own token verified, so the secret is there.
  if (!token) throw new Error("MANAGE_TOKEN_SECRET vanished mid-request");
  return {
    token,
    url: manageUrlOf(origin, token),
    expires_at: toIso(manageExpiry(booking.endAt)),
  };
}
