import { createRoute, type RouteHandler } from "@hono/zod-openapi";
import { asc } from "drizzle-orm";
import { listPage } from "../../../db/queries/list";
import { bookingStatuses } from "../../../db/schema";
import { whereIn } from "../../../db/scope";
import type { AppEnv } from "../../../env";
import { PaginationQuery, pageRequest, paginate } from "../../../lib/pagination";
import { errorResponses, json } from "../../../lib/responses";
import { BookingStatusList, renderBookingStatus } from "../../../views/booking-status";

export const route = createRoute({
  method: "get",
  path: "/booking-statuses",
  tags: ["Booking statuses"],
  summary: "List the workspace's booking statuses",
  request: { query: PaginationQuery },
  responses: { 200: json(BookingStatusList, "A page of booking statuses"), ...errorResponses },
});

export const handler: RouteHandler<typeof route, AppEnv> = async (c) => {
  const page = pageRequest(c.req.valid("query"));
  const scope = c.var.scope;
  const { rows, total } = await listPage(
    scope.db,
    bookingStatuses,
    whereIn(scope, bookingStatuses),
    [asc(bookingStatuses.createdAt), asc(bookingStatuses.id)],
    page,
  );
  return c.json(paginate(c.req.url, rows.map(renderBookingStatus), total, page), 200);
};
