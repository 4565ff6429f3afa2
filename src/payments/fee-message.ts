import type { Database } from "../db/client";
import { run } from "../db/reads";
import { announce } from "../messages/rules";
import {
  changeContext,
  insertVisitorMessages,
  type MessageDeps,
  messageBooking,
  messageRows,
} from "../bookings/messages";
import { feeMessageRead } from "./queries/fee-message-read";
import { type FeeMessages, isFeeKind, type LedgerRecord, recordOutcome } from "./queries/ledger";
import type { Outcome } from "./queries/outcome-moves";

type OutcomeRow = Pick<LedgerRecord, "id" | "bookingId" | "workspaceId" | "kind" | "amount">;

/** Who caused the outcome, for the customer's message. */
export interface OutcomeCause {
  /**
   * A customer's write (a publishable key's or manage link's cancel): its
   * visitor, whose messages are bounded as every customer-caused message is.
   */
  visitor?: string | null | undefined;
  /** The request's origin, for the booking's links (none in a background pass). */
  origin?: string | undefined;
}

/**
 * The `payment-fee-charged` message of a fee that succeeded, one per channel
 * that reaches the customer, to go into the batch that records the outcome
 * (`recordOutcome` writes them only while the row is still pending, so a
 * replayed answer tells no one twice). Undefined for any other outcome, or a
 * booking without a customer to tell. Costs one read round trip.
 */
export async function feeMessages(
  db: Database,
  row: OutcomeRow,
  outcome: Outcome,
  cause: OutcomeCause = {},
): Promise<FeeMessages | undefined> {
  if (outcome.status !== "succeeded" || !isFeeKind(row.kind)) return undefined;
  const kind = row.kind;
  const scope = { db, workspaceId: row.workspaceId };
  const { record, told, workspace } = await run(db, feeMessageRead(scope, row.bookingId));
  if (!record || !workspace) return undefined;
  const visitor = cause.visitor ?? undefined;
  const deps: MessageDeps = {
    scope,
    render: { currency: workspace.currency, locale: workspace.locale, origin: cause.origin ?? "" },
    messageVisitor: visitor,
  };
  const ctx = changeContext(deps, told, record);
  if (!ctx) return undefined;
  const now = Date.now();
  const drafts = announce(
    "payment-fee-charged",
    { ...ctx, fee: { kind, amount: row.amount } },
    [messageBooking(deps, record, told.stafferNames)],
    now,
  );
  const rows = messageRows(scope, ctx.customer.id, drafts, now, visitor);
  return (when) => insertVisitorMessages(scope, rows, visitor, when);
}

/**
 * Writes a provider's answer to a pending ledger row in one batch, with
 * everything `recordOutcome` moves and, for a fee that succeeded, the
 * customer's message (read first). Answers whether this write changed the
 * row (false: another writer recorded it already).
 */
export async function writeOutcome(
  db: Database,
  row: OutcomeRow,
  outcome: Outcome,
  cause: OutcomeCause = {},
): Promise<boolean> {
  const told = await feeMessages(db, row, outcome, cause);
  const results = await db.batch(recordOutcome(db, row, outcome, Date.now(), told));
  const updated = results[results.length - 1];
  return Array.isArray(updated) && updated.length > 0;
}
