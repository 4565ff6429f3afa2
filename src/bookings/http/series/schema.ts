import { z } from "@hono/zod-openapi";
import { CANCEL_REASONS } from "../../rules/booking-rules";
import { instant, uuid } from "../../../platform/fields";
import { flag } from "../bookings/schema";

export const SeriesPath = z.object({ series_uuid: uuid("series_uuid") });

export const CancelSeriesBody = z
  .object({
    from_booking_uuid: uuid("from_booking_uuid").optional().openapi({
      description:
        "Cancel this occurrence and every later one; absent: every upcoming occurrence. It must be a booking of this series (else 422)",
    }),
    cancel_reason: z
      .enum(CANCEL_REASONS)
      .optional()
      .openapi({ description: "Defaults to canceled; recorded on every occurrence canceled" }),
  })
  .openapi("CancelSeries");

export const RescheduleSeriesBody = z
  .object({
    from_booking_uuid: uuid("from_booking_uuid").openapi({
      description:
        "The occurrence that moves to reserved_on; every later open occurrence moves by the same local-time shift. It must be an upcoming, open booking of this series",
    }),
    reserved_on: instant,
    is_send_notification_on_reschedule: flag.optional().openapi({
      description:
        "Tell the customer: one booking-rescheduled message listing every moved occurrence (default false)",
    }),
  })
  .openapi("RescheduleSeries");
