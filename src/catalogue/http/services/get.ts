import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { getService } from "../../queries/services";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { renderService, ServicePath, ServiceSchema } from "./schema";

export const route = defineRoute({
  operationId: "getService",
  keys: "publishable",
  method: "get",
  path: "/services/{service_uuid}",
  tags: ["Services"],
  summary: "Get a service",
  description:
    "With a publishable key, a service that is not live or not live_in_widget is 404, like an unknown one.",
  request: { params: ServicePath },
  responses: {
    200: json(ServiceSchema, "The service"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("service"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const ws = c.var.workspace;
  const { service_uuid: id } = c.req.valid("param");
  const view = await getService(c.var.deps.scope, id, {
    widgetOnly: c.var.deps.caller === "customer",
  });
  if (!view) throw notFound("Service");
  return c.json(renderService(view, ws.currency, ws.locale), 200);
};
