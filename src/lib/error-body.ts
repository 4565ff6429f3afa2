import { z } from "@hono/zod-openapi";
import { ErrorCodeSchema } from "./errors";

/** The one error body of the API (docs/api.md, "Conventions"). */
export const ErrorBodySchema = z
  .object({
    message: z.string(),
    code: ErrorCodeSchema,
    errors: z.record(z.string(), z.array(z.string())).optional(),
    request_id: z.string().optional(),
  })
  .openapi("Error");

export type ErrorBody = z.infer<typeof ErrorBodySchema>;
