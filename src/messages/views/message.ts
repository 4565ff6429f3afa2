import { z } from "@hono/zod-openapi";
import type { MessageRow } from "../queries/messages";
import {
  CHANNELS,
  DEFAULT_PUBLIC_MESSAGE_BUDGET,
  PUBLIC_RECIPIENT_MESSAGES,
  SKIP_REASONS,
  STATUSES,
} from "../rules";
import {
  BOOKING_MESSAGES,
  BOOKING_QUOTA,
  PUBLIC_MESSAGES,
  VISITOR_QUOTA,
} from "../../platform/rules/public-visit";
import { toIso } from "../../platform/clock";

export const MessageSchema = z
  .object({
    uuid: z.string(),
    kind: z.string().openapi({
      description:
        "booking-confirmation, booking-rescheduled, booking-canceled, booking-reminder or waitlist-offer (later kinds may be added)",
    }),
    channel: z.enum(CHANNELS),
    to: z.string().openapi({ description: "The e-mail address or phone number it goes to" }),
    locale: z.string().openapi({ description: "The language it is written in" }),
    subject: z.string().nullable().openapi({ description: "E-mail only; null for SMS" }),
    body: z.string().openapi({ description: "Plain text" }),
    booking_uuid: z.string().nullable(),
    waitlist_entry_uuid: z
      .string()
      .nullable()
      .openapi({ description: "A waitlist-offer message: the entry offered the time" }),
    customer_uuid: z.string().nullable(),
    status: z.enum(STATUSES),
    scheduled_for: z.string().openapi({ description: "When it is (or was) due, UTC" }),
    sent_at: z.string().nullable(),
    attempts: z.number().int(),
    error: z
      .string()
      .nullable()
      .openapi({
        description: `Why it failed, or \`${VISITOR_QUOTA}\` when it was skipped because the visitor whose write caused it (publishable key or manage link, by client address) had already caused ${PUBLIC_MESSAGES.perVisitor} messages in ${PUBLIC_MESSAGES.windowSeconds / 3600} hours, or \`${BOOKING_QUOTA}\` when it is a booking-rescheduled message of a customer's move (from any address) and customers' moves of that booking had already been told ${BOOKING_MESSAGES.perBooking} times on its channel in ${BOOKING_MESSAGES.windowSeconds / 3600} hours`,
      }),
    skip_reason: z
      .enum(SKIP_REASONS)
      .nullable()
      .openapi({
        description: `Why a \`skipped\` message was not sent (null otherwise): \`opted_out\` (the customer left the channel), \`sms_country\` (the number's country is not in the notification settings' sms_countries), \`recipient_quota\` (requests with a publishable key or without a key had already made the workspace send ${PUBLIC_RECIPIENT_MESSAGES.perRecipient} messages to this phone or inbox that UTC day, whoever asked), \`workspace_quota\` (the workspace's public_message_budget of the day, ${DEFAULT_PUBLIC_MESSAGE_BUDGET} unless set, was used up), \`${VISITOR_QUOTA}\` or \`${BOOKING_QUOTA}\` (as \`error\` describes). Messages the workspace's own secret-key requests cause are bounded by none of the quotas.`,
      }),
  })
  .openapi("Message");

export type Message = z.infer<typeof MessageSchema>;

export const renderMessage = (m: MessageRow): Message => ({
  uuid: m.id,
  kind: m.kind,
  channel: m.channel,
  to: m.to,
  locale: m.locale,
  subject: m.subject,
  body: m.body,
  booking_uuid: m.bookingId,
  waitlist_entry_uuid: m.waitlistEntryId,
  customer_uuid: m.customerId,
  status: m.status,
  scheduled_for: toIso(m.scheduledFor),
  sent_at: m.sentAt === null ? null : toIso(m.sentAt),
  attempts: m.attempts,
  error: m.error,
  // Only a reason the API names; anything else stored (none is written) reads as null.
  skip_reason: SKIP_REASONS.find((reason) => reason === m.skipReason) ?? null,
});
