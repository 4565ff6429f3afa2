import type { Context } from "hono";
import type { OpenEnv } from "../../../http/env";
import { routeLink } from "../../../http/route-link";
import { limitLink, limitLinkWorkspace } from "../../../http/rate-limit";
import { configOf } from "../../../platform/config";
import { now } from "../../../platform/clock";
import { dateOfDay } from "../../rules/days";
import { loadDashboardFigures } from "../figures";
import { dashboardGrantRows } from "../../queries/dashboard-grant";
import { dashboardLocation } from "../../queries/dashboard-location";
import { readDashboardToken } from "../token";
import { PAGE_HEADERS } from "../views/html";
import { renderDashboardPage, renderRefusal } from "../views/page";
import { dashboardLocale, TEXTS } from "../views/texts";

const english = { language: "en" as const, texts: TEXTS.en };

/**
 * `GET /dashboard?token=…`: the read-only dashboard a link opens. A token
 * this Worker did not sign (or changed anywhere) or naming nothing there is
 * 404; one past its expiry, or whose API key is revoked, 410. Either way a
 * plain page, no figure.
 */
export async function dashboardPage(c: Context<OpenEnv>) {
  const refuse = (gone: boolean, view: Parameters<typeof renderRefusal>[0] = english) =>
    c.html(renderRefusal(view, gone), gone ? 410 : 404, PAGE_HEADERS);
  const secret = configOf(c.env).manageTokenSecret;
  const grant = secret ? readDashboardToken(secret, c.req.query("token") ?? "") : null;
  if (!grant) return refuse(false);
  const at = now();
  if (at >= grant.expiresAt) return refuse(true);
  // Per link and per workspace, whatever addresses ask: a leaked link costs D1 reads on every view.
  await limitLink(c.env, `dashboard:${c.req.query("token") ?? ""}`);
  await limitLinkWorkspace(c.env, grant.workspaceId);
  const { workspace, keyStands } = await dashboardGrantRows(
    c.var.directory,
    grant.workspaceId,
    grant.apiKeyId,
  );
  if (!workspace) return refuse(false);
  const { language, locale } = dashboardLocale(workspace.locale);
  const view = { language, texts: TEXTS[language] };
  if (!keyStands) return refuse(true, view);
  const db = await routeLink(c, grant.workspaceId);
  const scope = db && { db, workspaceId: grant.workspaceId };
  const location = scope && (await dashboardLocation(scope, grant.locationId));
  if (!scope || !location) return refuse(false, view);
  const from = dateOfDay(grant.fromDay);
  const to = dateOfDay(grant.toDay);
  const figures = await loadDashboardFigures(scope, { locationId: location.id, from, to });
  return c.html(
    renderDashboardPage({
      ...view,
      locale,
      currency: workspace.currency,
      locationName: location.name,
      from,
      to,
      expiresAt: grant.expiresAt,
      timezone: location.timezone,
      figures,
    }),
    200,
    PAGE_HEADERS,
  );
}
