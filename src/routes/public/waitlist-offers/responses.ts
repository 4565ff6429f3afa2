import { errorCodes, rateLimitError } from "../../../lib/responses";

/** Every offer route: the token's refusal and the per-address limit. */
export const offerErrors = {
  401: errorCodes("No current offer has this token", ["invalid_token"]),
  ...rateLimitError,
} as const;
