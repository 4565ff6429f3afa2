import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { jsonText, StringListSchema, TranslationsSchema } from "./json-text";
import { locations } from "./locations";
import { StoredPaymentPolicySchema } from "./payments";
import { staffers } from "./staff";
import { workspaces } from "./workspaces";

export const categories = sqliteTable(
  "categories",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    /** `service` or `good`: a service cannot be filed under a goods category. */
    kind: text("kind", { enum: ["service", "good"] }).notNull(),
    class: text("class"),
    order: integer("order").notNull().default(0),
    cover: text("cover"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("categories_workspace_idx").on(t.workspaceId, t.kind)],
);

export const services = sqliteTable(
  "services",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    description: text("description"),
    images: jsonText("images", "services", StringListSchema).notNull().default([]),
    price: integer("price").notNull(),
    priceDiscount: integer("price_discount"),
    priceType: text("price_type").notNull().default("base"),
    duration: integer("duration").notNull(),
    isPause: integer("is_pause", { mode: "boolean" }).notNull().default(false),
    pause: integer("pause").notNull().default(0),
    isPriceHidden: integer("is_price_hidden", { mode: "boolean" }).notNull().default(false),
    isDurationHidden: integer("is_duration_hidden", { mode: "boolean" }).notNull().default(false),
    isTop: integer("is_top", { mode: "boolean" }).notNull().default(false),
    startingAt: integer("starting_at", { mode: "boolean" }).notNull().default(false),
    live: integer("live", { mode: "boolean" }).notNull().default(true),
    liveInWidget: integer("live_in_widget", { mode: "boolean" }).notNull().default(true),
    /** What a customer pays when booking it online (null: nothing). */
    paymentPolicy: jsonText("payment_policy", "services", StoredPaymentPolicySchema),
    isAutoAllocated: integer("is_auto_allocated", { mode: "boolean" }).notNull().default(false),
    class: text("class"),
    categoryId: text("category_id").references(() => categories.id),
    taxName: text("tax_name"),
    /** Basis points (2000 = 20 %); null means untaxed. */
    taxRateBp: integer("tax_rate_bp"),
    /** Seats per session (1..100): above 1 a group service, whose bookings at one start and staffer share it. */
    capacity: integer("capacity").notNull().default(1),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("services_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id)],
);

export const serviceLocations = sqliteTable(
  "service_locations",
  {
    workspaceId: text("workspace_id").notNull(),
    serviceId: text("service_id")
      .notNull()
      .references(() => services.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
  },
  (t) => [
    primaryKey({ columns: [t.serviceId, t.locationId] }),
    index("service_locations_location_idx").on(t.locationId),
  ],
);

export const serviceStaffers = sqliteTable(
  "service_staffers",
  {
    workspaceId: text("workspace_id").notNull(),
    serviceId: text("service_id")
      .notNull()
      .references(() => services.id),
    stafferId: text("staffer_id")
      .notNull()
      .references(() => staffers.id),
  },
  (t) => [
    primaryKey({ columns: [t.serviceId, t.stafferId] }),
    index("service_staffers_staffer_idx").on(t.stafferId),
  ],
);

export const goods = sqliteTable(
  "goods",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    article: text("article").notNull(),
    categoryId: text("category_id").references(() => categories.id),
    description: text("description"),
    isPayable: integer("is_payable", { mode: "boolean" }).notNull(),
    price: integer("price"),
    unit: text("unit").notNull(),
    isConsumable: integer("is_consumable", { mode: "boolean" }).notNull(),
    consumableUnit: text("consumable_unit"),
    quantityInUnit: integer("quantity_in_unit"),
    images: jsonText("images", "goods", StringListSchema).notNull().default([]),
    live: integer("live", { mode: "boolean" }).notNull().default(true),
    liveInWidget: integer("live_in_widget", { mode: "boolean" }).notNull().default(true),
    publicNameTranslatable: jsonText("public_name_translatable", "goods", TranslationsSchema)
      .notNull()
      .default({}),
    publicDescriptionTranslatable: jsonText(
      "public_description_translatable",
      "goods",
      TranslationsSchema,
    )
      .notNull()
      .default({}),
    taxName: text("tax_name"),
    taxRateBp: integer("tax_rate_bp"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    // The reference: article is unique in the workspace. The index is also what enforces it under races.
    uniqueIndex("goods_workspace_article_uq").on(t.workspaceId, t.article),
    index("goods_workspace_created_idx").on(t.workspaceId, t.createdAt, t.id),
  ],
);

export const goodStocks = sqliteTable(
  "good_stocks",
  {
    workspaceId: text("workspace_id").notNull(),
    goodId: text("good_id")
      .notNull()
      .references(() => goods.id),
    locationId: text("location_id")
      .notNull()
      .references(() => locations.id),
    quantity: integer("quantity").notNull(),
    unitPrice: integer("unit_price").notNull(),
    criticalStock: integer("critical_stock"),
  },
  (t) => [primaryKey({ columns: [t.goodId, t.locationId] })],
);

export const voucherTemplates = sqliteTable(
  "voucher_templates",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id),
    name: text("name").notNull(),
    price: integer("price").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("voucher_templates_workspace_idx").on(t.workspaceId)],
);
