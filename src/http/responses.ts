import type { z } from "@hono/zod-openapi";
import { ErrorBodySchema } from "./error-body";
import type { ErrorCode } from "../platform/errors";

/** OpenAPI response entries shared by the routes, so the documents list the error body too. */
export const json = <T extends z.ZodType>(schema: T, description: string) => ({
  content: { "application/json": { schema } },
  description,
});

const error = (description: string) => json(ErrorBodySchema, description);

/** An error response naming the codes this operation answers with it (each `code` in the body). */
export const errorCodes = (
  description: string,
  codes: readonly [ErrorCode, ...ErrorCode[]] | readonly [...ErrorCode[], ErrorCode],
) => error(`${description}. Codes: ${codes.map((c) => `\`${c}\``).join(", ")}.`);

/*
 * Building blocks of a route's error responses: a route spreads the ones that
 * apply to it, so its document lists only the statuses it can really answer.
 * A later spread (or an entry of the route's own) replaces an earlier one of
 * the same status with a more precise description.
 */

/** Every route: the rate limits (per client address, and per API key once it verified). */
export const rateLimitError = {
  429: errorCodes("Rate limited; see Retry-After", ["rate_limited"]),
} as const;

/** Every route behind credentials (API key and Workspace header, or the admin token). */
export const authErrors = {
  401: errorCodes("Missing or invalid credentials", ["unauthenticated"]),
  ...rateLimitError,
} as const;

/** Routes whose path or query parameters are validated. */
export const queryErrors = {
  422: errorCodes("A path or query parameter is invalid", ["validation_failed"]),
} as const;

/** Routes with a JSON body (422 covers their path and query parameters too). */
export const bodyErrors = {
  400: errorCodes("The body is not valid JSON", ["invalid_json"]),
  413: errorCodes("The body is larger than 256 KB", ["payload_too_large"]),
  415: errorCodes("The body is not application/json", ["unsupported_media_type"]),
  422: errorCodes("A field or parameter is invalid", ["validation_failed"]),
} as const;

/**
 * Writes of busy time (claims in staffer and unit calendars, then one D1
 * batch): a write that would need more than 100 calendar calls or a batch of
 * more than 100 statements is refused before anything is claimed or written.
 */
export const TOO_LARGE =
  "or the write would need more than 100 calendar calls (claims and confirms of its staffer and resource-unit calendars) or a D1 batch of more than 100 statements (`request_too_large`; nothing is held or written)";

/** `bodyErrors` of a route that writes busy time. */
export const calendarWriteErrors = {
  ...bodyErrors,
  422: errorCodes(`A field or parameter is invalid, ${TOO_LARGE}`, [
    "validation_failed",
    "request_too_large",
  ]),
} as const;

/** Routes whose path names a record (`what`, lower case): another workspace's is not found either. */
export const notFoundError = (what: string) => ({
  404: error(`No such ${what} in this workspace`),
});

/** Management routes under `/workspaces/{ws}`: the workspace, or the record `what` in it, is not found. */
export const workspaceNotFound = (what?: string) => ({
  404: error(what ? `No such workspace, or no such ${what} in it` : "No such workspace"),
});

const STILL_RUNNING = "a request with the same Idempotency-Key is still being processed";

/**
 * 409 of a public POST, PUT or PATCH: the idempotency middleware's `conflict`
 * while a request with the same Idempotency-Key runs, and the operation's own
 * 409 codes, if any (`description` says when those happen).
 */
export const conflictErrors = (description?: string, codes: readonly ErrorCode[] = []) => ({
  409: errorCodes(
    description ? `${description}; or ${STILL_RUNNING} (\`conflict\`)` : capitalise(STILL_RUNNING),
    [...codes, "conflict"],
  ),
});

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  body: { content: { "application/json": { schema } }, required: true },
});
