import type { RouteHandler } from "@hono/zod-openapi";
import { saveSettings } from "../../../queries/messages";
import { requireWorkspace } from "../../../../tenancy/queries/workspaces";
import {
  DEFAULT_PUBLIC_MESSAGE_BUDGET,
  MAX_PUBLIC_MESSAGE_BUDGET,
  MAX_SMS_COUNTRIES,
  NotificationSettingsSchema,
  VARIABLES,
  withSmsCountries,
} from "../../../rules";
import type { AdminEnv } from "../../../../http/env";
import { defineRoute } from "../../../../http/operations";
import {
  authErrors,
  bodyErrors,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { WorkspaceParams } from "../../../../tenancy/http/admin/workspaces/schema";

export const route = defineRoute({
  operationId: "setNotificationSettings",
  keys: "admin",
  method: "put",
  path: "/workspaces/{ws}/notification-settings",
  tags: ["Notification settings"],
  summary: "Set the workspace's customer message settings",
  description: `Replaces the whole document. At most 3 reminders, each 1..20160 minutes before the booking. Templates are keyed by kind and language tag (de, de-AT) and may name only these variables in {{…}}: ${Object.keys(VARIABLES).join(", ")}; any other is 422 on its field (e.g. templates.booking-reminder.de.body). Rendering substitutes text only and runs no code. \`sms_countries\` (1..${MAX_SMS_COUNTRIES} ISO 3166 alpha-2 codes, each once) names the countries SMS go to; omitted, it is the workspace's own country. \`public_message_budget\` (0..${MAX_PUBLIC_MESSAGE_BUDGET}, default ${DEFAULT_PUBLIC_MESSAGE_BUDGET}) bounds the messages a UTC day that requests with a publishable key or without a key may cause.`,
  request: { params: WorkspaceParams, ...jsonBody(NotificationSettingsSchema) },
  responses: {
    200: json(NotificationSettingsSchema, "The settings as they now are"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const settings = c.req.valid("json");
  const workspace = await requireWorkspace(c.var.db, ws);
  // Saved with the countries filled in, so every reader of the document finds them.
  const saved = withSmsCountries(settings, workspace.country);
  await saveSettings({ db: c.var.db, workspaceId: workspace.id }, saved, Date.now());
  return c.json(saved, 200);
};
