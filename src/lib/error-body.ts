import { z } from "@hono/zod-openapi";

/** The one error body of the API (DESIGN §5). */
export const ErrorBodySchema = z
  .object({
    message: z.string(),
    code: z.string().openapi({ example: "validation_failed" }),
    errors: z.record(z.string(), z.array(z.string())).optional(),
    request_id: z.string().optional(),
  })
  .openapi("Error");

export type ErrorBody = z.infer<typeof ErrorBodySchema>;
