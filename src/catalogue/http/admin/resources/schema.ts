import { z } from "@hono/zod-openapi";
import { RESOURCE_KINDS } from "../../../../db/schema";
import { nonEmpty, uuid } from "../../../../platform/fields";
import { PaginationQuery } from "../../../../platform/pagination";

/** Units a resource may have: each is a calendar object, claimed all at once by a block. */
export const MAX_RESOURCE_QUANTITY = 50;

/** One unit of a resource, by number (a block names one). */
export const ResourceUnit = z
  .number()
  .int("Must be a whole number.")
  .min(1, "At least 1.")
  .max(MAX_RESOURCE_QUANTITY, `At most ${MAX_RESOURCE_QUANTITY}.`);

export const CreateResourceBody = z
  .object({
    location_uuid: uuid("location_uuid"),
    name: nonEmpty(200),
    kind: z
      .enum(RESOURCE_KINDS, { message: `Must be one of ${RESOURCE_KINDS.join(", ")}.` })
      .optional()
      .openapi({ description: "Default `other`" }),
    quantity: ResourceUnit.optional().openapi({
      description: `Number of units, 1..${MAX_RESOURCE_QUANTITY} (default 1); fixed at creation`,
    }),
  })
  .openapi("CreateResource");

export const ListResourcesQuery = PaginationQuery.extend({
  location_uuid: uuid("location_uuid").optional().openapi({
    description: "Only the resources of this location",
  }),
});

export const ResourceParams = z.object({
  ws: z.uuid({ message: "The workspace id must be a valid UUID." }),
  uuid: uuid("resource uuid"),
});
