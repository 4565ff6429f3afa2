import { createMiddleware } from "hono/factory";
import { configOf } from "../config";
import type { AdminEnv } from "../env";
import { constantTimeEqual } from "../lib/api-keys";
import { bearerToken } from "../lib/bearer";
import { ApiError } from "../lib/errors";

/** Management API: the operator's ADMIN_TOKEN secret. Without a configured token nothing gets in. */
export const requireAdminToken = createMiddleware<AdminEnv>(async (c, next) => {
  const token = bearerToken(c);
  const expected = configOf(c.env).adminToken;
  if (!token || !expected || !(await constantTimeEqual(token, expected))) {
    throw new ApiError(
      "unauthenticated",
      "Send the admin token as `Authorization: Bearer <token>`.",
    );
  }
  await next();
});
