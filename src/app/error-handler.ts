import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { OpenEnv } from "../http/env";
import type { ErrorBody } from "../http/error-body";
import { ApiError, type ErrorCode, statusFor, workspaceMoving } from "../platform/errors";
import { log } from "../platform/log";
import { WorkspaceNotHereError } from "../db/instrumented-d1";
import { forgetPlacement } from "../db/shards";

function bodyOf(error: ApiError): ErrorBody {
  const body: ErrorBody = { message: error.message, code: error.code };
  if (error.errors) body.errors = error.errors;
  if (error.alternatives) body.alternatives = error.alternatives;
  if (error.occurrenceConflicts) body.conflicts = error.occurrenceConflicts;
  return body;
}

export function renderError(c: Context, error: ApiError): Response {
  for (const [name, value] of Object.entries(error.headers ?? {})) c.header(name, value);
  return c.json(bodyOf(error), error.status);
}

/** The error as a fresh response, carrying nothing of the context's headers. */
export function standaloneError(error: ApiError): Response {
  return Response.json(bodyOf(error), { status: error.status, headers: error.headers });
}

function codeForHttpStatus(status: number): ErrorCode {
  if (status === 400) return "invalid_json";
  if (status === 401) return "unauthenticated";
  if (status === 403) return "forbidden";
  if (status === 404) return "not_found";
  if (status === 405) return "method_not_allowed";
  if (status === 413) return "payload_too_large";
  if (status === 415) return "unsupported_media_type";
  if (status === 429) return "rate_limited";
  return status < 500 ? "validation_failed" : "internal_error";
}

/**
 * The ApiError an error carries, itself or down its `cause` chain: a write
 * refused by the request's write gate (the key check's 401 or 429) reaches
 * here wrapped by drizzle as a failed query, and is that refusal, not a 500.
 */
function apiErrorIn(error: unknown): ApiError | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof ApiError) return e;
  }
  return null;
}

function notHereIn(error: unknown): WorkspaceNotHereError | null {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof WorkspaceNotHereError) return e;
  }
  return null;
}

/** The single `onError`: known errors keep their code, everything else is a logged 500. */
export function onError(error: Error, c: Context<OpenEnv>): Response {
  const known = apiErrorIn(error);
  if (known) return renderError(c, known);
  const elsewhere = notHereIn(error);
  if (elsewhere) {
    // The shard this isolate routed to no longer takes the workspace (a move paused its writes,
    // or finished): the next request asks the directory again.
    forgetPlacement(elsewhere.workspaceId);
    return renderError(c, workspaceMoving());
  }
  if (error instanceof HTTPException && error.status < 500) {
    const code = codeForHttpStatus(error.status);
    // Hono's body parser reports malformed JSON this way; keep its wording out of our contract.
    const message = code === "invalid_json" ? "The request body is not valid JSON." : error.message;
    return renderError(c, new ApiError(code, message || "Bad request."));
  }
  return internalError(c.get("requestId") ?? "unknown", error, c.req);
}

/**
 * Logs an unexpected error and answers the one 500 body, as a fresh response.
 * The line names the request's method and path; the log redacts a keyless
 * link's token in it (src/platform/log.ts).
 */
export function internalError(
  requestId: string,
  error: unknown,
  request?: { method: string; path: string },
): Response {
  log("error", "unexpected error", {
    request_id: requestId,
    ...(request ? { method: request.method, path: request.path } : {}),
    error,
  });
  const body: ErrorBody = {
    message: "Something went wrong on our side. Quote the request id when reporting it.",
    code: "internal_error",
    request_id: requestId,
  };
  return Response.json(body, { status: statusFor("internal_error") });
}

export function onNotFound(c: Context<OpenEnv>): Response {
  return renderError(
    c,
    new ApiError(
      "route_not_found",
      `No route matches ${c.req.method} ${new URL(c.req.url).pathname}.`,
    ),
  );
}
