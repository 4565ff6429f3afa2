import { and, asc, eq, ne, or, type SQL, sql, type SQLWrapper } from "drizzle-orm";
import { z } from "zod";
import { idIn } from "../bounded";
import { parseJsonColumn } from "../json-column";
import { read, type Read } from "../reads";
import { MESSAGE_CHANNELS, messages } from "../schema";
import { type Scope, whereIn } from "../scope";

/**
 * Where a booking's confirmation went: one per message written to go out. A
 * cart's one confirmation is written under its first booking.
 */
export const SentToRowSchema = z.object({ channel: z.enum(MESSAGE_CHANNELS), to: z.string() });
export type SentTo = z.infer<typeof SentToRowSchema>;

const SentToListSchema = z.array(SentToRowSchema);

const CONFIRMATION = "booking-confirmation";

/**
 * Skip reasons that come from the recipient's stored state (the customer left
 * the channel; that phone or inbox was already messaged today), not from the
 * request or the salon. The answer lists these as if written: otherwise
 * someone booking with another person's phone learns that person's settings.
 */
const RECIPIENT_SKIPS = ["opted_out", "recipient_quota"] as const;

/**
 * Told to the customer as written to go out: neither `canceled` nor `skipped`
 * for a reason of the request or the salon (a channel the salon turned off for
 * the country, a quota the write's own batch decided). `failed` stays: it was
 * sent, the provider refused it.
 */
const toGoOut = and(
  ne(messages.status, "canceled"),
  or(
    ne(messages.status, "skipped"),
    ...RECIPIENT_SKIPS.map((reason) => eq(messages.skipReason, reason)),
  ),
);

/**
 * The confirmations of these bookings told as written to go out (`toGoOut`). Appended
 * to the batch that writes them, it reads what the batch's own statements
 * decided (quotas are decided in SQL) at no round trip of its own.
 */
export const confirmationsRead = (scope: Scope, bookingIds: readonly string[]): Read<SentTo[]> =>
  read(
    [
      scope.db
        .select({ channel: messages.channel, to: messages.to })
        .from(messages)
        .where(
          whereIn(
            scope,
            messages,
            idIn(messages.bookingId, bookingIds),
            eq(messages.kind, CONFIRMATION),
            toGoOut,
          ),
        )
        .orderBy(asc(messages.channel), asc(messages.to)),
    ],
    ([rows]) => rows.map((r) => ({ channel: r.channel, to: r.to })),
  );

/**
 * A column of the same list as JSON, for a read that names the booking by a
 * column of its own row (one statement, no second read): `[{channel, to}]`.
 */
export const confirmationsJson = (workspaceId: SQLWrapper, bookingId: SQLWrapper): SQL<string> =>
  sql<string>`(select coalesce(json_group_array(json_object('channel', m.channel, 'to', m."to")), '[]')
    from (select ${messages.channel} as channel, ${messages.to} as "to" from ${messages}
      where ${messages.workspaceId} = ${workspaceId} and ${messages.bookingId} = ${bookingId}
        and ${messages.kind} = ${CONFIRMATION} and ${toGoOut}
      order by ${messages.channel}, ${messages.to}) as m)`;

/** The JSON column `confirmationsJson` reads, as the list. */
export const parseConfirmations = (text: string, bookingId: string): SentTo[] =>
  parseJsonColumn(SentToListSchema, text, { column: "confirmations", id: bookingId });
