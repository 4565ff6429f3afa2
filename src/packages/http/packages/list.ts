import { type RouteHandler, z } from "@hono/zod-openapi";
import type { PublicEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { PaginationQuery, pageRequest, paginate } from "../../../platform/pagination";
import { listTemplates } from "../../queries/templates";
import { renderPackage } from "../../views/package";
import { PackageList } from "./schema";

const ListQuery = PaginationQuery.extend({
  live: z
    .enum(["true", "false"], { message: "Must be true or false." })
    .optional()
    .openapi({ description: "Only the packages on sale (true) or withdrawn (false)" }),
});

export const route = defineRoute({
  operationId: "listPackages",
  keys: "secret",
  method: "get",
  path: "/packages",
  tags: ["Packages"],
  summary: "List packages and memberships, oldest first",
  request: { query: ListQuery },
  responses: {
    200: json(PackageList, "A page of packages"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const q = c.req.valid("query");
  const page = pageRequest(q);
  const live = q.live === undefined ? undefined : q.live === "true";
  const { rows, total } = await listTemplates(c.var.deps.scope, page, { live });
  return c.json(paginate(c.req.url, rows.map(renderPackage), total, page), 200);
};
