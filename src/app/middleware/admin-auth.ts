import { createMiddleware } from "hono/factory";
import { configOf } from "../../platform/config";
import type { AdminEnv } from "../../http/env";
import { constantTimeEqual } from "../../tenancy/api-keys";
import { bearerToken } from "../../http/bearer";
import { ApiError } from "../../platform/errors";

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
