import type { z } from "@hono/zod-openapi";
import { ErrorBodySchema } from "./error-body";
import type { ErrorCode } from "./errors";

/** OpenAPI response entries shared by every route, so the documents list the error body too. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

const error = (description: string) => json(ErrorBodySchema, description);

export const errorResponses = {
  400: error("Malformed JSON"),
  401: error("Missing or invalid credentials"),
  404: error("Not found in this workspace"),
  415: error("Body is not application/json"),
  422: error("Validation failed"),
  429: error("Rate limited; see Retry-After"),
} as const;

/** An error response naming the codes this operation answers with it (each `code` in the body). */
export const errorCodes = (description: string, codes: readonly [ErrorCode, ...ErrorCode[]]) =>
  error(`${description}. Codes: ${codes.map((c) => `\`${c}\``).join(", ")}.`);

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});
