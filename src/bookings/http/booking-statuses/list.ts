import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listBookingStatuses } from "../../queries/booking-statuses";
import type { PublicEnv } from "../../../http/env";
import { PaginationQuery, pageRequest, paginate } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { BookingStatusList, renderBookingStatus } from "../../views/booking-status";

export const route = defineRoute({
  operationId: "listBookingStatuses",
  keys: "secret",
  method: "get",
  path: "/booking-statuses",
  tags: ["Booking statuses"],
  summary: "List the workspace's booking statuses",
  request: { query: PaginationQuery },
  responses: {
    200: json(BookingStatusList, "A page of booking statuses"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const page = pageRequest(c.req.valid("query"));
  const { rows, total } = await listBookingStatuses(c.var.deps.scope, page);
  return c.json(paginate(c.req.url, rows.map(renderBookingStatus), total, page), 200);
};
