import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listServices } from "../../queries/services";
import type { PublicEnv } from "../../../http/env";
import { PaginationQuery, pageRequest, paginate } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { renderService, ServiceList } from "./schema";

export const route = defineRoute({
  operationId: "listServices",
  keys: "publishable",
  method: "get",
  path: "/services",
  tags: ["Services"],
  summary: "List services",
  description:
    "A publishable key sees only the services the booking widget shows (live and live_in_widget).",
  request: { query: PaginationQuery },
  responses: {
    200: json(ServiceList, "A page of services"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const ws = c.var.workspace;
  const page = pageRequest(c.req.valid("query"));
  const { records, total } = await listServices(c.var.deps.scope, page, {
    widgetOnly: c.var.deps.caller === "customer",
  });
  const data = records.map((v) => renderService(v, ws.currency, ws.locale));
  return c.json(paginate(c.req.url, data, total, page), 200);
};
