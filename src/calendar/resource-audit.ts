import { calendarFor } from "./client";
import { unitCalendarId } from "./ids";
import type { CalendarAudit } from "./types";
import { findResource } from "../catalogue/queries/resources";
import type { Scope } from "../db/scope";
import type { Env } from "../platform/env";
import { notFound } from "../platform/errors";

export interface ResourceCalendarAudit {
  in_sync: boolean;
  units: (CalendarAudit & { unit: number })[];
}

/**
 * Compares (or first rebuilds from D1, `rebuild`) every unit's calendar
 * object with D1, all units at once; the resource is in sync when each is.
 */
export async function auditResourceCalendars(
  deps: { scope: Scope; env: Env },
  resourceId: string,
  mode: "audit" | "rebuild",
): Promise<ResourceCalendarAudit> {
  const { scope, env } = deps;
  const resource = await findResource(scope, resourceId);
  if (!resource) throw notFound("Resource");
  const units = await Promise.all(
    Array.from({ length: resource.quantity }, async (_, i) => {
      const unit = i + 1;
      const calendarId = unitCalendarId(resource.id, unit);
      const stub = calendarFor(env, scope.workspaceId, calendarId);
      const audit =
        mode === "audit"
          ? await stub.audit(scope.workspaceId, calendarId)
          : await stub.rebuild(scope.workspaceId, calendarId);
      return { unit, ...audit };
    }),
  );
  return { in_sync: units.every((u) => u.in_sync), units };
}
