import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listStaffers, listWidgetStaffers } from "../../queries/staffers";
import type { PublicEnv } from "../../../http/env";
import { PaginationQuery, pageRequest, paginate } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import {
  PublicStafferList,
  renderPublicStaffer,
  renderStaffer,
  StafferList,
} from "../../views/staffer";

export const route = defineRoute({
  operationId: "listStaffers",
  keys: "publishable",
  method: "get",
  path: "/staffers",
  tags: ["Staffers"],
  summary: "List the workspace's staff",
  description:
    "A secret key sees every staffer with e-mail, permissions and widget flag (StafferList). A publishable key (a booking page) sees only the staff active in the booking widget, each with uuid, first_name, last_name and locations and nothing else (PublicStafferList).",
  request: { query: PaginationQuery },
  responses: {
    200: json(
      z.union([StafferList, PublicStafferList]),
      "A page of staffers: StafferList for a secret key, PublicStafferList for a publishable key",
    ),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const page = pageRequest(c.req.valid("query"));
  if (c.var.deps.caller === "customer") {
    const { rows, total } = await listWidgetStaffers(c.var.deps.scope, page);
    return c.json(paginate(c.req.url, rows.map(renderPublicStaffer), total, page), 200);
  }
  const { rows, total } = await listStaffers(c.var.deps.scope, page);
  const data = rows.map((r) => renderStaffer(r.staffer, r.locationIds));
  return c.json(paginate(c.req.url, data, total, page), 200);
};
