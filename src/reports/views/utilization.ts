import { z } from "@hono/zod-openapi";
import { groupFields, reportOf } from "./report";

export const UTILIZATION_GROUPS = ["staffer", "day"] as const;
export const UtilizationGroupBy = z.enum(UTILIZATION_GROUPS).openapi("UtilizationGroupBy");

const sums = {
  working_minutes: z
    .number()
    .int()
    .openapi({ description: "Scheduled working time (weekly schedule, or the date's override)" }),
  booked_minutes: z
    .number()
    .int()
    .openapi({ description: "Booked time, buffers included; a group session counts once" }),
  blocked_minutes: z.number().int().openapi({ description: "Blocked spots" }),
  utilization: z
    .number()
    .nullable()
    .openapi({ description: "booked / working, 4 decimals; null when working is 0" }),
};

export const UtilizationRow = z.object({ ...groupFields, ...sums }).openapi("UtilizationRow");
export const UtilizationTotals = z.object(sums).openapi("UtilizationTotals");
export const UtilizationReport = reportOf(
  UtilizationGroupBy,
  UtilizationRow,
  UtilizationTotals,
).openapi("UtilizationReport");

export type UtilizationGroup = z.infer<typeof UtilizationGroupBy>;
export type UtilizationRow = z.infer<typeof UtilizationRow>;
export type UtilizationTotals = z.infer<typeof UtilizationTotals>;
export type UtilizationReport = z.infer<typeof UtilizationReport>;
