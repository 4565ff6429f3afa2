import { z } from "@hono/zod-openapi";
import type { ResourceBlockRow } from "../../../blocks/resource-block";
import { toIso } from "../../../../platform/clock";
import { blockRange, optionalText, instant } from "../../../../platform/fields";
import { ResourceUnit } from "../../../../catalogue/http/admin/resources/schema";

/** As a staffer's blocked spot: a longer closure is several blocks, keeping slot search reads bounded. */
export const MAX_RESOURCE_BLOCK_DAYS = 366;

export const CreateResourceBlockBody = z
  .object({
    starts_at: instant,
    ends_at: instant,
    unit: ResourceUnit.optional().openapi({
      description: "Which unit (1..quantity); omitted: every unit of the resource",
    }),
    comment: optionalText(1000).optional(),
  })
  .superRefine(blockRange(MAX_RESOURCE_BLOCK_DAYS, "A block"))
  .openapi("CreateResourceBlock");

export const ResourceBlockSchema = z
  .object({
    uuid: z.string(),
    resource_uuid: z.string(),
    unit: z.number().int().nullable().openapi({ description: "null: every unit" }),
    starts_at: z.string(),
    ends_at: z.string(),
    comment: z.string().nullable(),
    created_at: z.string(),
  })
  .openapi("ResourceBlock");

export const renderResourceBlock = (
  row: ResourceBlockRow,
): z.infer<typeof ResourceBlockSchema> => ({
  uuid: row.id,
  resource_uuid: row.resourceId,
  unit: row.unit,
  starts_at: toIso(row.startsAt),
  ends_at: toIso(row.endsAt),
  comment: row.comment,
  created_at: toIso(row.createdAt),
});

const UnitInterval = z
  .object({
    booking_uuid: z.uuid().optional(),
    blocked_spot_uuid: z
      .uuid()
      .optional()
      .openapi({ description: "A resource block's uuid (entries of kind blocked)" }),
    reservation_uuid: z.uuid().optional(),
    starts_at: z.string().openapi({ example: "2030-03-04T09:00:00Z" }),
    ends_at: z.string().openapi({ example: "2030-03-04T10:00:00Z" }),
  })
  .openapi("ResourceCalendarInterval");

export const ResourceCalendarAuditSchema = z
  .object({
    in_sync: z.boolean().openapi({ description: "Every unit is in sync." }),
    units: z.array(
      z
        .object({
          unit: z.number().int(),
          in_sync: z.boolean().openapi({
            description: "The unit's calendar object holds exactly the busy time D1 records.",
          }),
          only_in_calendar: z.array(UnitInterval),
          only_in_d1: z.array(UnitInterval),
        })
        .openapi("ResourceUnitAudit"),
    ),
  })
  .openapi("ResourceCalendarAudit");
