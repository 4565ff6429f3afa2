import { insertResource, workspaceHasLocation, type ResourceRow } from "../queries/resources";
import type { RESOURCE_KINDS } from "../../db/schema";
import type { Scope } from "../../db/scope";
import { invalid } from "../../platform/errors";

export interface NewResource {
  locationId: string;
  name: string;
  kind?: (typeof RESOURCE_KINDS)[number];
  /** Units; fixed at creation (docs/decisions.md). */
  quantity?: number;
}

/** What a new resource can be wrong about (422): its location. */
export type NewResourceSubject = { is: "location" };

/**
 * Creates a resource at one of the workspace's locations: 404 Workspace for an
 * unknown workspace, 422 about the location when it is not its own.
 */
export async function createResource(scope: Scope, input: NewResource): Promise<ResourceRow> {
  if (!(await workspaceHasLocation(scope, input.locationId))) {
    throw invalid({ is: "location" }, "Unknown location.");
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
