import { ApiError } from "../../platform/errors";

/**
 * Google's "invalid argument" (400): the request names something that is not there, or is
 * malformed; `field` is the message's path (`slot.merchant_id`).
 */
export const invalidArgument = (field: string, message: string) =>
  new ApiError("invalid_argument", message, { errors: { [field]: [message] } });

/** A field the method needs, absent. */
export const missing = (field: string) =>
  new ApiError("invalid_argument", `${field} is required.`, {
    errors: { [field]: ["Required."] },
  });
