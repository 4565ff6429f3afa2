import type { UpdateMask } from "../rules/rtu";

/** The queue the real-time updates travel on (wrangler.toml). */
export const RWG_QUEUE_NAME = "salon-rwg";

/**
 * What travels on RWG_QUEUE: one call to Google each, so each retries on its own. A booking
 * notification names the booking only: the consumer reads it as it is then (a later change
 * overtakes an earlier one's message, and Google is told the latest). An availability replace
 * names the location and the window of its local days a booking change touched.
 */
export type RwgMessage =
  | { kind: "booking"; workspaceId: string; bookingId: string; mask: UpdateMask }
  | { kind: "availability"; workspaceId: string; locationId: string; fromMs: number; toMs: number };
