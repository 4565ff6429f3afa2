import { type RouteHandler, z } from "@hono/zod-openapi";
import { findMessage } from "../../queries/messages";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { uuid } from "../../../platform/fields";
import { defineRoute } from "../../../http/operations";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { MessageSchema, renderMessage } from "../../views/message";

export const route = defineRoute({
  operationId: "getMessage",
  keys: "secret",
  method: "get",
  path: "/messages/{message_uuid}",
  tags: ["Messages"],
  summary: "Get a message",
  request: { params: z.object({ message_uuid: uuid("message_uuid") }) },
  responses: {
    200: json(MessageSchema, "The message"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("message"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { message_uuid: id } = c.req.valid("param");
  const row = await findMessage(c.var.deps.scope, id);
  if (!row) throw notFound("Message");
  return c.json(renderMessage(row), 200);
};
