import { ApiError } from "../../platform/errors";

/** A field the method needs, absent: Google's "invalid argument" (400). */
export const missing = (field: string) =>
  new ApiError("invalid_argument", `${field} is required.`, {
    errors: { [field]: ["Required."] },
  });
