import { errorCodes, rateLimitError } from "../../../http/responses";

/** Every manage route: the token's refusal, the per-address limit, and a booking gone. */
export const manageErrors = {
  401: errorCodes("The token was changed, is malformed or has expired", ["invalid_token"]),
  ...rateLimitError,
  404: errorCodes("The booking the token names no longer exists", ["not_found"]),
} as const;
