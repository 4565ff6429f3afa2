import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { createGood } from "../../goods/create";
import { type FieldNames, withFields } from "../../../http/request-fields";
import type { NewGoodSubject } from "../../goods/create";
import type { PublicEnv } from "../../../http/env";
import { authErrors, bodyErrors, conflictErrors, json, jsonBody } from "../../../http/responses";
import { CreateGoodBody, GoodSchema, renderGood } from "./schema";

export const route = defineRoute({
  operationId: "createGood",
  keys: "secret",
  method: "post",
  path: "/goods",
  tags: ["Goods"],
  summary: "Create a good (retail product); article is unique in the workspace",
  request: jsonBody(CreateGoodBody),
  responses: {
    201: json(GoodSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...conflictErrors(),
  },
});

const FIELDS: FieldNames<NewGoodSubject> = {
  category: "category_uuid",
  "stock location": "initial_stock.location_uuid",
  article: "article",
};

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  const stock = body.initial_stock?.is_set ? body.initial_stock : null;
  const created = await withFields(FIELDS, () =>
    createGood(c.var.deps.scope, {
      name: body.name,
      article: body.article,
      isPayable: body.is_payable,
      unit: body.unit,
      isConsumable: body.is_consumable,
      price: body.price,
      consumableUnit: body.consumable_unit,
      quantityInUnit: body.quantity_in_unit,
      description: body.description,
      categoryId: body.category_uuid,
      images: body.images,
      live: body.live,
      liveInWidget: body.live_in_widget,
      publicNameTranslatable: body.public_name_translatable,
      publicDescriptionTranslatable: body.public_description_translatable,
      initialStock: stock && {
        locationId: stock.location_uuid,
        quantity: stock.quantity,
        unitPrice: stock.unit_price,
        criticalStock: stock.critical_stock,
      },
    }),
  );
  return c.json(renderGood(created), 201);
};
