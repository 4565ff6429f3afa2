import { errorCodes, rateLimitError } from "../../../http/responses";

/** Every offer route: the token's refusal and the rate limits (per address, token, workspace). */
export const offerErrors = {
  401: errorCodes("No current offer has this token", ["invalid_token"]),
  ...rateLimitError,
} as const;
