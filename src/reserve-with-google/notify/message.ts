import type { UpdateMask } from "../rules/rtu";

/** The queue the real-time updates travel on (wrangler.toml). */
export const RWG_QUEUE_NAME = "salon-rwg";

/**
 * What travels on RWG_QUEUE: one call to Google each, so each retries on its own. A booking
 * notification names the booking only: the consumer reads it as it is then (a later change
 * overtakes an earlier one's message, and Google is told the latest). An availability replace
 * names the location and the window of its local days a booking change touched. Each carries
 * the Google partner account it goes out under, read with the workspace's `enabled` when the
 * event was listened to (the salon's own `partner_id`, else the platform's RWG_PARTNER_ID).
 */
export type RwgMessage = { workspaceId: string; partnerId: string } & (
  | { kind: "booking"; bookingId: string; mask: UpdateMask }
  | { kind: "availability"; locationId: string; fromMs: number; toMs: number }
);
