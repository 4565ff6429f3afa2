import { runBatch } from "../../db/client";
import { isUniqueViolation } from "../../db/constraints";
import {
  type CategoryRow,
  type GoodRow,
  insertGood,
  insertGoodStock,
  readGoodRefs,
} from "../queries/goods";
import type { Scope } from "../../db/scope";
import type { Problem } from "../../platform/rules/problems";
import { InvalidError, invalid } from "../../platform/errors";

export interface NewGood {
  name: string;
  /** Unique in the workspace. */
  article: string;
  isPayable: boolean;
  unit: GoodRow["unit"];
  isConsumable: boolean;
  price?: number;
  consumableUnit?: NonNullable<GoodRow["consumableUnit"]>;
  quantityInUnit?: number;
  description?: string;
  categoryId?: string;
  images?: string[];
  live?: boolean;
  liveInWidget?: boolean;
  publicNameTranslatable?: Record<string, string>;
  publicDescriptionTranslatable?: Record<string, string>;
  /** Stock to record at one location, or null for none. */
  initialStock: {
    locationId?: string;
    quantity?: number;
    unitPrice?: number;
    criticalStock?: number;
  } | null;
}

export interface CreatedGood {
  good: GoodRow;
  category: CategoryRow | null;
  stock: number;
}

/** What a new good can be wrong about: its category, the location of its stock, its article. */
export type NewGoodSubject = { is: "category" } | { is: "stock location" } | { is: "article" };

const TAKEN = "Another good of the workspace has this article.";
const taken = () => invalid({ is: "article" }, TAKEN);

/** Creates a good (and its initial stock) in one batch: 1 read and 1 write round trip. */
export async function createGood(scope: Scope, input: NewGood): Promise<CreatedGood> {
  const stock = input.initialStock;
  const refs = await readGoodRefs(scope, {
    categoryId: input.categoryId ?? "",
    locationId: stock?.locationId ?? "",
    article: input.article,
  });
  const problems: Problem<NewGoodSubject>[] = [];
  const cat = refs.category;
  if (input.categoryId && cat?.kind !== "good")
    problems.push({ about: { is: "category" }, messages: ["Unknown goods category."] });
  if (stock && !refs.locationFound)
    problems.push({ about: { is: "stock location" }, messages: ["Unknown location."] });
  if (refs.articleTaken) problems.push({ about: { is: "article" }, messages: [TAKEN] });
  if (problems.length > 0) throw new InvalidError(problems);

  const good = {
    id: crypto.randomUUID(),
    workspaceId: scope.workspaceId,
    name: input.name,
    article: input.article,
    categoryId: cat?.id ?? null,
    description: input.description ?? null,
    isPayable: input.isPayable,
    price: input.price ?? null,
    unit: input.unit,
    isConsumable: input.isConsumable,
    consumableUnit: input.consumableUnit ?? null,
    quantityInUnit: input.quantityInUnit ?? null,
    images: input.images ?? [],
    live: input.live ?? true,
    liveInWidget: input.liveInWidget ?? true,
    publicNameTranslatable: input.publicNameTranslatable ?? {},
    publicDescriptionTranslatable: input.publicDescriptionTranslatable ?? {},
    taxName: null,
    taxRateBp: null,
    createdAt: Date.now(),
  };
  const writes = [insertGood(scope, good)];
  if (stock) {
    writes.push(
      insertGoodStock(scope, {
        goodId: good.id,
        locationId: stock.locationId ?? "",
        quantity: stock.quantity ?? 0,
        unitPrice: stock.unitPrice ?? 0,
        criticalStock: stock.criticalStock ?? null,
      }),
    );
  }
  // The unique index decides a race between two requests with the same article.
  await runBatch(scope.db, writes).catch((e: unknown) => {
    throw isUniqueViolation(e, "goods", "article") ? taken() : e;
  });
  return { good, category: cat, stock: stock?.quantity ?? 0 };
}
