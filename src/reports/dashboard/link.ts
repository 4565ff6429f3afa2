import type { Scope } from "../../db/scope";
import { configOf, type Settings } from "../../platform/config";
import { fieldError, notFound } from "../../platform/errors";
import { publicOrigin } from "../../platform/public-origin";
import { dashboardLocation } from "../queries/dashboard-location";
import { type DashboardLinkBody, dashboardPeriod, todayIn } from "./rules/period";
import { signDashboardToken } from "./token";

/** A link opens its dashboard for a day after it was made. */
export const LINK_LIFETIME_MS = 86_400_000;
/** Where the page is served (the token in its query string). */
export const DASHBOARD_PAGE = "/dashboard";

/**
 * A signed link to a location's read-only dashboard for a period, made with
 * the API key `apiKeyId` (revoking the key closes the link).
 */
export async function createDashboardLink(
  scope: Scope,
  env: Settings,
  apiKeyId: string,
  body: DashboardLinkBody,
  at: number,
): Promise<{ url: string; expiresAt: number }> {
  const location = await dashboardLocation(scope, body.location_uuid);
  if (!location) throw notFound("Location");
  const period = dashboardPeriod(body, todayIn(location.timezone, at));
  if ("field" in period) throw fieldError(period.field, period.message);
  const secret = configOf(env).manageTokenSecret;
  if (!secret) throw new Error("MANAGE_TOKEN_SECRET is not set: no dashboard link can be signed");
  // Whole seconds, as the token carries them.
  const expiresAt = Math.floor((at + LINK_LIFETIME_MS) / 1000) * 1000;
  const token = signDashboardToken(secret, {
    workspaceId: scope.workspaceId,
    locationId: location.id,
    ...period,
    expiresAt,
    apiKeyId,
  });
  return { url: `${publicOrigin(env)}${DASHBOARD_PAGE}?token=${token}`, expiresAt };
}
