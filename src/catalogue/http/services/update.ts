import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { PublicEnv } from "../../../http/env";
import { authErrors, bodyErrors, json, jsonBody, notFoundError } from "../../../http/responses";
import { updateService } from "../../services/update";
import { renderService, ServicePath, ServiceSchema, UpdateServiceBody } from "./schema";

export const route = defineRoute({
  operationId: "updateService",
  keys: "secret",
  method: "patch",
  path: "/services/{service_uuid}",
  tags: ["Services"],
  summary: "Change a service's capacity or payment policy",
  description:
    "Sets capacity (seats per session, 1..100), payment_policy (replaced as a whole), or both; at least one. A new capacity applies to seats booked from now on: bookings already made stay, and a session takes new seats only while its seats taken are below the new capacity. A new payment policy applies to reservations and bookings made from now on: those already made keep the terms they were made with.",
  request: { params: ServicePath, ...jsonBody(UpdateServiceBody) },
  responses: {
    200: json(ServiceSchema, "The service as changed"),
    ...authErrors,
    ...bodyErrors,
    ...notFoundError("service"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { service_uuid: id } = c.req.valid("param");
  const body = c.req.valid("json");
  const view = await updateService(c.var.deps.scope, id, {
    capacity: body.capacity,
    paymentPolicy: body.payment_policy,
  });
  return c.json(renderService(view, c.var.deps.render.currency, c.var.deps.render.locale), 200);
};
