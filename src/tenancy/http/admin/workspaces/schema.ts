import { z } from "@hono/zod-openapi";
import type { workspaces } from "../../../../db/schema";
import { toIso } from "../../../../platform/clock";
import { country, currency, locale, nonEmpty, timezone } from "../../../../platform/fields";

export const CreateWorkspaceBody = z
  .object({
    name: nonEmpty(),
    country,
    currency,
    locale: locale.optional(),
    timezone,
  })
  .openapi("CreateWorkspace");

export const WorkspaceSchema = z
  .object({
    uuid: z.string(),
    name: z.string(),
    country: z.string(),
    currency: z.string(),
    locale: z.string(),
    timezone: z.string(),
    created_at: z.string(),
  })
  .openapi("Workspace");

export const renderWorkspace = (
  row: typeof workspaces.$inferSelect,
): z.infer<typeof WorkspaceSchema> => ({
  uuid: row.id,
  name: row.name,
  country: row.country,
  currency: row.currency,
  locale: row.locale,
  timezone: row.timezone,
  created_at: toIso(row.createdAt),
});

export const CreatedWorkspaceSchema = WorkspaceSchema.extend({ api_key: z.string() }).openapi(
  "CreatedWorkspace",
);

export const WorkspaceParams = z.object({
  ws: z.uuid({ message: "The workspace id must be a valid UUID." }),
});
