import { ApiError } from "../platform/errors";

/**
 * D1 binds at most 100 parameters per statement ("too many SQL variables");
 * src/db/bounded.ts holds the helpers that keep every statement under it.
 */
export const D1_MAX_PARAMS = 100;

/** In the message of a statement refused before sending: drizzle may wrap it, so it is matched by text. */
export const OVER_PARAMETER_LIMIT = "over D1's parameter limit";

/** Refused before sending (the instrumented D1): nothing reached the database. */
export class TooManyParametersError extends Error {
  constructor(query: string, count: number) {
    super(
      `statement binds ${count} parameters, ${OVER_PARAMETER_LIMIT} of ${D1_MAX_PARAMS}: ${query.slice(0, 120)}`,
    );
    this.name = "TooManyParametersError";
  }
}

/**
 * Statements one request may send in one D1 batch. Cloudflare counts every
 * statement of a batch as a query of the invocation. A calendar write planned
 * over it is refused before it claims anything (422 `request_too_large`); the
 * instrumented D1 refuses to send any batch over it, so no path can run one.
 */
export const D1_MAX_BATCH_STATEMENTS = 100;

/** In the message of a batch refused before sending, matched by text like the parameter limit. */
export const OVER_BATCH_LIMIT = "over D1's statements per batch";

/**
 * Refused before sending (the instrumented D1): nothing reached the database,
 * so the request can answer 422 `request_too_large` with nothing written.
 */
export class TooManyStatementsError extends ApiError {
  constructor(count: number) {
    super(
      "request_too_large",
      `The request needs a write of ${count} statements, ${OVER_BATCH_LIMIT} (${D1_MAX_BATCH_STATEMENTS}). Split it into smaller requests.`,
    );
  }
}
