import { z } from "@hono/zod-openapi";
import type { SessionRow } from "../queries/sessions";
import { toIso } from "../../platform/clock";
import { paginated } from "../../platform/pagination";

export const SessionSchema = z
  .object({
    start: z.string().openapi({ description: "The session's start (UTC instant)" }),
    staffer_uuid: z.string(),
    service_uuid: z.string(),
    capacity: z.number().int().openapi({ description: "The service's capacity (seats)" }),
    seats_taken: z.number().int().openapi({
      description: "Seats of the live bookings in the session (their quantities summed)",
    }),
    booking_uuids: z.array(z.string()).openapi({ description: "The session's live bookings" }),
  })
  .openapi("Session");

export const SessionList = paginated(SessionSchema, "SessionList");

export const renderSession = (r: SessionRow): z.infer<typeof SessionSchema> => ({
  start: toIso(r.start),
  staffer_uuid: r.stafferId,
  service_uuid: r.serviceId,
  capacity: r.capacity,
  seats_taken: r.seatsTaken,
  booking_uuids: r.bookingIds,
});
