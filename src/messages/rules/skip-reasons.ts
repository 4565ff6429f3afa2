/**
 * Why a message was recorded `skipped` instead of sent (a Message's
 * `skip_reason`): the customer left the channel; the SMS's number is of a
 * country the workspace does not serve; or a bound on what requests with a
 * publishable key or without a key may make the salon send was reached: the
 * recipient's of the day, the workspace's daily budget, the client address's,
 * the booking's moves.
 */
export const SKIP_REASONS = [
  "opted_out",
  "sms_country",
  "recipient_quota",
  "workspace_quota",
  "visitor_quota",
  "booking_quota",
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];
