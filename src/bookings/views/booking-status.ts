import type { z } from "@hono/zod-openapi";
import type { bookingStatuses } from "../../db/schema";
import { paginated } from "../../platform/pagination";
import { StatusSchema } from "./booking-schema";

// One component for the status everywhere: a booking embeds exactly what this list returns.
export const BookingStatusSchema = StatusSchema;

export const BookingStatusList = paginated(BookingStatusSchema, "BookingStatusList");

export const renderBookingStatus = (
  row: typeof bookingStatuses.$inferSelect,
): z.infer<typeof BookingStatusSchema> => ({ uuid: row.id, name: row.name, type: row.type });
