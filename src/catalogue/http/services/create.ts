import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { PublicEnv } from "../../../http/env";
import { authErrors, bodyErrors, conflictErrors, json, jsonBody } from "../../../http/responses";
import { type FieldNames, withFields } from "../../../http/request-fields";
import { createService, type NewServiceSubject } from "../../services/create";
import { CreateServiceBody, renderService, ServiceSchema } from "./schema";

export const route = defineRoute({
  operationId: "createService",
  keys: "secret",
  method: "post",
  path: "/services",
  tags: ["Services"],
  summary: "Create a service (core fields)",
  description:
    "Omitted location_uuids means every location of the workspace; omitted staffer_uuids means every staffer active in the booking widget at one of those locations. payment_policy (default none) says what a customer booking it online pays: a customer's booking of a service with one goes through POST /reservations/{uuid}/checkout (POST /bookings with a publishable key is 402 payment_required).",
  request: jsonBody(CreateServiceBody),
  responses: {
    201: json(ServiceSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...conflictErrors(),
  },
});

const FIELDS: FieldNames<NewServiceSubject> = {
  name: "name",
  category: "category_uuid",
  locations: "location_uuids",
  staffers: "staffer_uuids",
  resource: ({ index }) => `resource_uuids.${index}`,
};

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  const view = await withFields(FIELDS, () =>
    createService(c.var.deps.scope, {
      name: body.name,
      duration: body.duration,
      price: body.price,
      description: body.description,
      images: body.images,
      categoryId: body.category_uuid,
      isPause: body.is_pause,
      pause: body.pause,
      priceDiscount: body.price_discount,
      live: body.live,
      liveInWidget: body.live_in_widget,
      isDurationHidden: body.is_duration_hidden,
      isPriceHidden: body.is_price_hidden,
      isTop: body.is_top,
      isAutoAllocated: body.is_auto_allocated,
      startingAt: body.starting_at,
      class: body.class,
      locationIds: body.location_uuids,
      stafferIds: body.staffer_uuids,
      resourceIds: body.resource_uuids,
      capacity: body.capacity,
      paymentPolicy: body.payment_policy,
    }),
  );
  return c.json(renderService(view, c.var.deps.render.currency, c.var.deps.render.locale), 201);
};
