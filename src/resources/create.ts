import { insertResource, workspaceHasLocation, type ResourceRow } from "../db/queries/resources";
import type { RESOURCE_KINDS } from "../db/schema";
import type { Scope } from "../db/scope";
import { fieldError } from "../lib/errors";

export interface NewResource {
  locationId: string;
  name: string;
  kind?: (typeof RESOURCE_KINDS)[number];
  /** Units; fixed at creation (docs/decisions.md). */
  quantity?: number;
}

/**
 * Creates a resource at one of the workspace's locations: 404 Workspace for an
 * unknown workspace, 422 on `location_uuid` for a location that is not its own.
 */
export async function createResource(scope: Scope, input: NewResource): Promise<ResourceRow> {
  if (!(await workspaceHasLocation(scope, input.locationId))) {
    throw fieldError("location_uuid", "Unknown location.");
  }
  const row: ResourceRow = {
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    locationId: input.locationId,
    name: input.name,
    kind: input.kind ?? "other",
    quantity: input.quantity ?? 1,
    createdAt: Date.now(),
  };
  await insertResource(scope, row);
  return row;
}
