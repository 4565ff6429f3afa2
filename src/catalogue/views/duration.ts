import { z } from "@hono/zod-openapi";

/** A duration as the reference shows it (a service's, a booking's). */
export const DurationSchema = z
  .object({ value: z.number().int(), label: z.string(), iso_8601: z.string() })
  .openapi("Duration");
