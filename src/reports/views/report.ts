import { z } from "@hono/zod-openapi";

/** A row's key and label: what a group is (null key: none, e.g. no staffer). */
export const groupFields = {
  key: z.string().nullable().openapi({
    description:
      "day `YYYY-MM-DD`, week its Monday `YYYY-MM-DD`, month `YYYY-MM`, a staffer's, service's or customer's uuid, a payment method; null: none",
  }),
  label: z.string().openapi({ description: "The group's name for people (English)" }),
};

const minor = (description: string) =>
  z
    .number()
    .int()
    .openapi({ description: `${description}, in minor units (tax excluded)` });

export const money = { minor };

/** Every report's envelope around its rows and their totals. */
export const reportOf = <G extends z.ZodType, R extends z.ZodType, T extends z.ZodType>(
  groupBy: G,
  row: R,
  totals: T,
) =>
  z.object({
    location_uuid: z.string(),
    from: z.string().openapi({ description: "First day, in the location's zone" }),
    to: z.string().openapi({ description: "Last day (included)" }),
    group_by: groupBy,
    timezone: z
      .string()
      .openapi({ description: "The location's zone, whose days the report counts" }),
    currency: z.string().openapi({ description: "The workspace's currency (ISO 4217)" }),
    data: z.array(row).openapi({
      description:
        "One row per group: by day, week or month every period of the range in order (empty ones included); otherwise the groups with anything in them, ordered by label",
    }),
    totals,
  });
