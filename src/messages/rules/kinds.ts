/** What a message tells a customer about; each kind has built-in texts in every language. */
export const MESSAGE_KINDS = [
  "booking-confirmation",
  "booking-rescheduled",
  "booking-canceled",
  "booking-reminder",
  "waitlist-offer",
  "payment-fee-charged",
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

export const CHANNELS = ["email", "sms"] as const;
export type Channel = (typeof CHANNELS)[number];

export const STATUSES = ["scheduled", "sent", "failed", "skipped", "canceled"] as const;
export type MessageStatus = (typeof STATUSES)[number];
