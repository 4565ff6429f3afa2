import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { OpenEnv } from "../../http/env";
import { ApiError } from "../../platform/errors";

const JSON_TYPE = /^application\/([a-z-.]+\+)?json(\s*;.*)?$/i;
export const MAX_BODY_BYTES = 256 * 1024;

/**
 * A body that is not JSON is refused up front with 415: otherwise the validator
 * would treat it as an empty object and answer with misleading "required" errors.
 */
export const requireJsonBody = createMiddleware<OpenEnv>(async (c, next) => {
  const method = c.req.method;
  if (method === "POST" || method === "PUT" || method === "PATCH") {
    const length = c.req.header("content-length");
    const hasBody = (length !== undefined && length !== "0") || c.req.header("transfer-encoding");
    const type = c.req.header("content-type");
    if (hasBody && !(type && JSON_TYPE.test(type))) {
      throw new ApiError(
        "unsupported_media_type",
        "Send the body as `Content-Type: application/json`.",
      );
    }
  }
  await next();
});

export const limitBody = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: () => {
    throw new ApiError("payload_too_large", `The body may not exceed ${MAX_BODY_BYTES} bytes.`);
  },
});
