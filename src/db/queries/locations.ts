import type { PageRequest } from "../../lib/pagination";
import { locations } from "../schema";
import type { Scope } from "../scope";
import { listInWorkspace } from "./list";

export const listLocations = (scope: Scope, page: PageRequest) =>
  listInWorkspace(scope, locations, page);
