import { and, eq } from "drizzle-orm";
import { locations, workspaces } from "../../db/schema";
import { read } from "../../db/reads";
import type { Scope } from "../../db/scope";

/** The location (null when it is not the workspace's) and the workspace's currency, in one read. */
export const reportLocation = (scope: Scope, locationId: string) =>
  read(
    [
      scope.db
        .select({ id: locations.id, timezone: locations.timezone })
        .from(locations)
        .where(and(eq(locations.id, locationId), eq(locations.workspaceId, scope.workspaceId))),
      scope.db
        .select({ currency: workspaces.currency })
        .from(workspaces)
        .where(eq(workspaces.id, scope.workspaceId)),
    ] as const,
    ([location, workspace]) => ({
      location: location[0] ?? null,
      currency: workspace[0]?.currency ?? "",
    }),
  );
