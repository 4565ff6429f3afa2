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
