import { z } from "@hono/zod-openapi";
import { groupFields, money, reportOf } from "./report";

export const NO_SHOW_GROUPS = ["service", "staffer", "customer"] as const;
export const NoShowGroupBy = z.enum(NO_SHOW_GROUPS).openapi("NoShowGroupBy");

const sums = {
  bookings: z.number().int().openapi({
    description:
      "Bookings that were due (kept, no-shows and late cancels; a timely cancel is not counted), on their start's day",
  }),
  didnt_come: z
    .number()
    .int()
    .openapi({ description: "Cancelled because the customer didn't come" }),
  late_cancels: z.number().int().openapi({
    description: "Cancelled by staff with a fee, or inside the booking's late-cancel window",
  }),
  no_show_rate: z
    .number()
    .nullable()
    .openapi({ description: "didnt_come / bookings, 4 decimals; null when no bookings" }),
  late_cancel_rate: z
    .number()
    .nullable()
    .openapi({ description: "late_cancels / bookings, 4 decimals; null when no bookings" }),
  fees: money.minor("Fees charged for them"),
  currency: z.string(),
};

export const NoShowRow = z.object({ ...groupFields, ...sums }).openapi("NoShowRow");
export const NoShowTotals = z.object(sums).openapi("NoShowTotals");
export const NoShowReport = reportOf(NoShowGroupBy, NoShowRow, NoShowTotals).openapi(
  "NoShowReport",
  { description: "A booking of two services counts under each of its services and staffers." },
);

export type NoShowGroup = z.infer<typeof NoShowGroupBy>;
export type NoShowRow = z.infer<typeof NoShowRow>;
export type NoShowTotals = z.infer<typeof NoShowTotals>;
export type NoShowReport = z.infer<typeof NoShowReport>;
