import { z } from "@hono/zod-openapi";
import { ErrorCodeSchema } from "../platform/errors";

const AlternativeSchema = z.object({
  start: z.string().openapi({ example: "2030-05-04T10:30:00Z" }),
  staffer_uuid: z.uuid(),
});

/** The one error body of the API (docs/api.md, "Conventions"). */
export const ErrorBodySchema = z
  .object({
    message: z.string(),
    code: ErrorCodeSchema,
    errors: z.record(z.string(), z.array(z.string())).optional(),
    request_id: z.string().optional(),
    alternatives: z.array(AlternativeSchema).max(5).optional().openapi({
      description:
        "Only with `slot_unavailable` or `session_full`: up to 5 free starts for the same service(s), nearest to the requested time first, the same day before other days. Empty when nothing is free within a week either side.",
    }),
    conflicts: z
      .array(
        z.object({
          start: z.string().openapi({ example: "2030-05-11T10:30:00Z" }),
          reason: z.enum(["slot_unavailable", "outside_working_hours"]).openapi({
            description:
              "`slot_unavailable`: the time is taken (a booking, blocked time, a hold); `outside_working_hours`: no eligible staffer works then",
          }),
          alternatives: z.array(AlternativeSchema).max(5),
        }),
      )
      .max(52)
      .optional()
      .openapi({
        description:
          "Only with `slot_unavailable` of a series (POST /bookings/series with on_conflict reject, PUT /series/{uuid}/reschedule): every occurrence that cannot be booked or moved (its start as asked), each with up to 5 free starts near it. Nothing was written.",
      }),
  })
  .openapi("Error");

export type ErrorBody = z.infer<typeof ErrorBodySchema>;
