import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { runBatch } from "../../../db/client";
import { isUniqueViolation } from "../../../db/constraints";
import { categories, goodStocks, goods, locations } from "../../../db/schema";
import { whereIn } from "../../../db/scope";
import type { AppEnv } from "../../../env";
import { fieldError, validationError } from "../../../lib/errors";
import { errorResponses, json, jsonBody } from "../../../lib/responses";
import { CreateGoodBody, GoodSchema, renderGood } from "./schema";

export const route = createRoute({
  method: "post",
  path: "/goods",
  tags: ["Goods"],
  summary: "Create a good (retail product); article is unique in the workspace",
  request: jsonBody(CreateGoodBody),
  responses: { 201: json(GoodSchema, "Created"), ...errorResponses },
});

const taken = () => fieldError("article", "Another good of the workspace has this article.");

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const body = c.req.valid("json");
  const scope = c.var.scope;
  const db = scope.db;
  const stock = body.initial_stock?.is_set ? body.initial_stock : null;
  const [category, location, sameArticle] = await db.batch([
    db
      .select()
      .from(categories)
      .where(whereIn(scope, categories, eq(categories.id, body.category_uuid ?? ""))),
    db
      .select({ id: locations.id })
      .from(locations)
      .where(whereIn(scope, locations, eq(locations.id, stock?.location_uuid ?? ""))),
    db
      .select({ id: goods.id })
      .from(goods)
      .where(whereIn(scope, goods, eq(goods.article, body.article))),
  ]);
  const problems: Record<string, string[]> = {};
  const cat = category[0];
  if (body.category_uuid && cat?.kind !== "good")
    problems.category_uuid = ["Unknown goods category."];
  if (stock && location.length === 0)
    problems["initial_stock.location_uuid"] = ["Unknown location."];
  if (sameArticle.length > 0)
    problems.article = ["Another good of the workspace has this article."];
  if (Object.keys(problems).length > 0) throw validationError(problems);

  const good = {
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    name: body.name,
    article: body.article,
    categoryId: cat?.id ?? null,
    description: body.description ?? null,
    isPayable: body.is_payable,
    price: body.price ?? null,
    unit: body.unit,
    isConsumable: body.is_consumable,
    consumableUnit: body.consumable_unit ?? null,
    quantityInUnit: body.quantity_in_unit ?? null,
    images: body.images ?? [],
    live: body.live ?? true,
    liveInWidget: body.live_in_widget ?? true,
    publicNameTranslatable: body.public_name_translatable ?? {},
    publicDescriptionTranslatable: body.public_description_translatable ?? {},
    taxName: null,
    taxRateBp: null,
    createdAt: Date.now(),
  };
  const writes: BatchItem<"sqlite">[] = [db.insert(goods).values(good)];
  if (stock) {
    writes.push(
      db.insert(goodStocks).values({
        workspaceId: scope.workspaceId,
        goodId: good.id,
        locationId: stock.location_uuid ?? "",
        quantity: stock.quantity ?? 0,
        unitPrice: stock.unit_price ?? 0,
        criticalStock: stock.critical_stock ?? null,
      }),
    );
  }
  // The unique index decides a race between two requests with the same article.
  await runBatch(db, writes).catch((e: unknown) => {
    throw isUniqueViolation(e, "goods", "article") ? taken() : e;
  });
  return c.json(renderGood({ good, category: cat ?? null, stock: stock?.quantity ?? 0 }), 201);
};
