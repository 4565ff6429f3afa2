import { type RouteHandler, z } from "@hono/zod-openapi";
import { listMessages } from "../../queries/messages";
import { CHANNELS, MESSAGE_KINDS, STATUSES } from "../../rules";
import type { PublicEnv } from "../../../http/env";
import { uuid } from "../../../platform/fields";
import { defineRoute } from "../../../http/operations";
import { PaginationQuery, pageRequest, paginate, paginated } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { MessageSchema, renderMessage } from "../../views/message";

const ListQuery = PaginationQuery.extend({
  booking_uuid: uuid("booking_uuid").optional(),
  customer_uuid: uuid("customer_uuid").optional(),
  kind: z.enum(MESSAGE_KINDS).optional(),
  status: z.enum(STATUSES).optional(),
  channel: z.enum(CHANNELS).optional(),
});

export const route = defineRoute({
  operationId: "listMessages",
  keys: "secret",
  method: "get",
  path: "/messages",
  tags: ["Messages"],
  summary: "List the messages sent or due to customers, oldest first",
  description:
    "Every confirmation, change notice and reminder written for a customer, one per channel, with what happened to it. A cart's one confirmation carries the first booking's uuid.",
  request: { query: ListQuery },
  responses: {
    200: json(paginated(MessageSchema, "MessageList"), "A page of messages"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const q = c.req.valid("query");
  const page = pageRequest(q);
  const { rows, total } = await listMessages(c.var.deps.scope, page, {
    bookingId: q.booking_uuid,
    customerId: q.customer_uuid,
    kind: q.kind,
    status: q.status,
    channel: q.channel,
  });
  return c.json(paginate(c.req.url, rows.map(renderMessage), total, page), 200);
};
