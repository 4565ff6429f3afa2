import type { ErrorBody } from "../http/error-body";
import { statusFor } from "../platform/errors";

/**
 * The answer to every request while one of the Worker's settings is malformed
 * (`settingsAtEntry` has named it in the log): one 500, as for any failure on
 * our side, rather than answering the routes that happen not to read it.
 */
export function misconfigured(): Response {
  const body: ErrorBody = {
    message: "The service is misconfigured; its operator can see why in the log.",
    code: "internal_error",
  };
  return Response.json(body, { status: statusFor("internal_error") });
}
