import { and, asc, eq, type SQL, sql } from "drizzle-orm";
import { accounts, accountTransactions, bookings, events, payments } from "../../db/schema";
import type { Database } from "../../db/client";
import { producing } from "../../db/effects";
import type { Statement } from "../../db/statement";
import { ONLINE_ACCOUNT_NAME } from "../../catalogue/rules/online-account";
import type { EventType } from "../../webhooks/queries/outbox";
import { eventEffect } from "../../webhooks/queries/outbox";

/** A ledger row whose outcome is being written, as much of it as these statements need. */
export interface OutcomeRow {
  id: string;
  workspaceId: string;
  bookingId: string;
}

export interface Outcome {
  status: "succeeded" | "failed";
  providerRef: string | null;
  failureReason: string | null;
}

/** The row is still pending: true only in the one batch that writes its outcome. */
export const stillPending = (id: string): SQL =>
  sql`exists (select 1 from ${payments} where ${payments.id} = ${id} and ${payments.status} = 'pending')`;

const bookingColumn = (row: OutcomeRow, column: SQL) =>
  sql`(select ${column} from ${bookings} where ${bookings.id} = ${row.bookingId} and ${bookings.workspaceId} = ${row.workspaceId})`;

/** The booking's location's online account (the oldest, should there be two). */
const onlineAccountOf = (db: Database, row: OutcomeRow) =>
  db
    .select({ id: accounts.id })
    .from(accounts)
    .where(
      and(
        eq(accounts.workspaceId, row.workspaceId),
        sql`${accounts.locationId} = ${bookingColumn(row, sql`${bookings.locationId}`)}`,
        eq(accounts.type, "online"),
      ),
    )
    .orderBy(asc(accounts.createdAt), asc(accounts.id))
    .limit(1);

/**
 * Money the provider moved for a booking, booked on its location's online
 * account with a transaction row (refunds negative), only while the ledger
 * row is still pending: a replayed answer moves nothing. A location that has
 * no online account yet (made outside the API) gets one first.
 */
export function onlineAccountMove(
  db: Database,
  row: OutcomeRow,
  delta: number,
  now: number,
): Statement[] {
  const pending = stillPending(row.id);
  const account = sql`(${onlineAccountOf(db, row)})`;
  return [
    db.insert(accounts).select(
      sql`select ${crypto.randomUUID()}, ${row.workspaceId}, ${bookings.locationId}, ${ONLINE_ACCOUNT_NAME}, 'online', 0, ${now}
          from ${bookings}
          where ${bookings.id} = ${row.bookingId} and ${bookings.workspaceId} = ${row.workspaceId}
            and ${pending} and not exists ${onlineAccountOf(db, row)}`,
    ),
    db
      .update(accounts)
      .set({ balance: sql`${accounts.balance} + ${delta}` })
      .where(and(sql`${accounts.id} = ${account}`, pending)),
    db.insert(accountTransactions).select(
      sql`select ${crypto.randomUUID()}, ${row.workspaceId}, ${account}, ${delta},
          ${bookingColumn(row, sql`${bookings.orderId}`)}, ${row.bookingId}, ${now}
          where ${pending} and ${account} is not null`,
    ),
  ];
}

/** The event an outcome is told by: money in, money back, or a call that failed. */
export const outcomeEvent = (kind: string, status: Outcome["status"]): EventType =>
  status === "failed"
    ? "payment-failed"
    : kind === "refund"
      ? "payment-refunded"
      : "payment-succeeded";

/**
 * The outbox row of an outcome, written only while the ledger row is still
 * pending: its data is the ledger row as `renderLedgerEntry` shows it (after
 * the outcome) plus `booking_uuid`, built from the row itself so the caller
 * needs only its id. Handed over whether or not its condition wrote it: the
 * dispatch claims only rows that exist.
 */
export function outcomeEventInsert(
  db: Database,
  row: OutcomeRow,
  type: EventType,
  outcome: Outcome,
  now: number,
): Statement {
  const id = crypto.randomUUID();
  const p = payments;
  return producing(
    db.insert(events).select(
      sql`select ${id}, ${row.workspaceId}, ${type},
        json_object('uuid', ${p.id}, 'kind', ${p.kind}, 'amount', ${p.amount}, 'currency', ${p.currency},
          'status', ${outcome.status}, 'provider', ${p.provider}, 'provider_ref', ${outcome.providerRef},
          'failure_reason', ${outcome.failureReason},
          'created_at', strftime('%Y-%m-%dT%H:%M:%SZ', ${p.createdAt} / 1000, 'unixepoch'),
          'booking_uuid', ${p.bookingId}),
        ${now}, null, null
        from ${p} where ${p.id} = ${row.id} and ${p.status} = 'pending'`,
    ),
    [eventEffect(row.workspaceId, id)],
  );
}
