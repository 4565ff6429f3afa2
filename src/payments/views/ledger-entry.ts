import { z } from "@hono/zod-openapi";
import { toIso } from "../../platform/clock";
import type { LedgerRecord } from "../queries/ledger";

/** One movement of a booking's money through the provider, as the API and webhooks show it. */
export const LedgerEntrySchema = z
  .object({
    uuid: z.string(),
    kind: z.enum([
      "deposit",
      "prepayment",
      "card_saved",
      "late_cancel_fee",
      "no_show_fee",
      "refund",
    ]),
    amount: z.number().int().openapi({ description: "Minor units (0 for a saved card)" }),
    currency: z.string(),
    status: z.enum(["pending", "succeeded", "failed"]),
    provider: z.enum(["stripe"]),
    provider_ref: z.string().nullable().openapi({
      description: "The provider's id of the payment, refund or saved card (pi_…, re_…, seti_…)",
    }),
    failure_reason: z.string().nullable(),
    created_at: z.string().openapi({ format: "date-time" }),
  })
  .openapi("LedgerEntry");

export type LedgerEntry = z.infer<typeof LedgerEntrySchema>;

/** What a `payment-succeeded`, `payment-refunded` or `payment-failed` event carries. */
export const PaymentEventSchema = LedgerEntrySchema.extend({ booking_uuid: z.string() }).openapi(
  "PaymentEvent",
);

export type LedgerEntryRow = Pick<
  LedgerRecord,
  | "id"
  | "kind"
  | "amount"
  | "currency"
  | "status"
  | "provider"
  | "providerRef"
  | "failureReason"
  | "createdAt"
>;

export const renderLedgerEntry = (row: LedgerEntryRow): LedgerEntry => ({
  uuid: row.id,
  kind: row.kind,
  amount: row.amount,
  currency: row.currency,
  status: row.status,
  provider: row.provider,
  provider_ref: row.providerRef,
  failure_reason: row.failureReason,
  created_at: toIso(row.createdAt),
});

export const renderPaymentEvent = (
  row: LedgerEntryRow & Pick<LedgerRecord, "bookingId">,
): z.infer<typeof PaymentEventSchema> => ({
  ...renderLedgerEntry(row),
  booking_uuid: row.bookingId,
});
