import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { findEntry } from "../../queries/waitlist";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { renderWaitlistEntry, WaitlistEntrySchema } from "../../views/waitlist-entry";
import { EntryPath } from "./schema";

export const route = defineRoute({
  operationId: "getWaitlistEntry",
  keys: "secret",
  method: "get",
  path: "/waitlist/{entry_uuid}",
  tags: ["Waitlist"],
  summary: "One waitlist entry, with its offer while it has one",
  description: "Secret keys only.",
  request: { params: EntryPath },
  responses: {
    200: json(WaitlistEntrySchema, "The entry"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("waitlist entry"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { entry_uuid: id } = c.req.valid("param");
  const row = await findEntry(c.var.deps.scope, id);
  if (!row) throw notFound("Waitlist entry");
  return c.json(renderWaitlistEntry(row), 200);
};
