import type { RouteHandler } from "@hono/zod-openapi";
import { loadSettings } from "../../../queries/messages";
import { requireWorkspace } from "../../../../tenancy/queries/workspaces";
import { NotificationSettingsSchema, settingsFrom, withSmsCountries } from "../../../rules";
import type { AdminEnv } from "../../../../http/env";
import { defineRoute } from "../../../../http/operations";
import { authErrors, json, queryErrors, workspaceNotFound } from "../../../../http/responses";
import { WorkspaceParams } from "../../../../tenancy/http/admin/workspaces/schema";

export const route = defineRoute({
  operationId: "getNotificationSettings",
  keys: "admin",
  method: "get",
  path: "/workspaces/{ws}/notification-settings",
  tags: ["Notification settings"],
  summary: "Get the workspace's customer message settings",
  description:
    "Channels, reminders, templates and the bounds on messages strangers can cause; a workspace that saved none gets the defaults (e-mail on, SMS off, one e-mail reminder 1440 minutes before, the built-in texts, SMS only to the workspace's own country, a public message budget of 500 a day).",
  request: { params: WorkspaceParams },
  responses: {
    200: json(NotificationSettingsSchema, "The settings"),
    ...authErrors,
    ...queryErrors,
    ...workspaceNotFound(),
  },
});

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws } = c.req.valid("param");
  const workspace = await requireWorkspace(c.var.db, ws);
  const stored = await loadSettings({ db: c.var.db, workspaceId: workspace.id });
  return c.json(withSmsCountries(settingsFrom(stored), workspace.country), 200);
};
