import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { listBookings } from "../../queries/booking-list";
import { durationObject, MINUTE } from "../../../platform/rules/duration";
import { toLocalIso } from "../../../platform/rules/local-time";
import type { PublicEnv } from "../../../http/env";
import { toIso } from "../../../platform/clock";
import { instantMs, uuid } from "../../../platform/fields";
import { PaginationQuery, pageRequest, paginate, paginated } from "../../../platform/pagination";
import { authErrors, json, queryErrors } from "../../../http/responses";
import { StatusSchema } from "../../views/booking-schema";
import { DurationSchema } from "../../../catalogue/views/duration";
import { CustomerSchema, renderCustomer } from "../../../catalogue/views/customer";

const ListQuery = PaginationQuery.extend({
  customer_uuid: uuid("customer_uuid").optional(),
  location_uuid: uuid("location_uuid").optional(),
  staffer_uuid: uuid("staffer_uuid").optional(),
  state: z.enum(["upcoming", "in_progress", "archive"]).optional(),
  status_uuid: uuid("status_uuid").optional(),
  reserved_on_from: instantMs.optional(),
  reserved_on_to: instantMs.optional(),
  created_at_from: instantMs.optional(),
  created_at_to: instantMs.optional(),
});

const BookingListItem = z
  .object({
    uuid: z.string(),
    location_uuid: z.string(),
    series_uuid: z.string().nullable().openapi({
      description: "The recurring series the booking is an occurrence of, or null",
    }),
    start_time: z.string(),
    end_time: z.string(),
    start_time_local: z.string(),
    end_time_local: z.string(),
    timezone: z.string(),
    duration: DurationSchema,
    created_at: z.string(),
    is_canceled: z.boolean(),
    is_completed: z.boolean(),
    customer: CustomerSchema,
    status: StatusSchema,
  })
  .openapi("BookingListItem");

export const route = defineRoute({
  operationId: "listBookings",
  keys: "secret",
  method: "get",
  path: "/bookings",
  tags: ["Bookings"],
  summary: "List bookings, newest reservation first",
  request: { query: ListQuery },
  responses: {
    200: json(paginated(BookingListItem, "BookingList"), "A page of bookings"),
    ...authErrors,
    ...queryErrors,
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const q = c.req.valid("query");
  const page = pageRequest(q);
  const { rows, total } = await listBookings(
    c.var.deps.scope,
    {
      customerId: q.customer_uuid,
      locationId: q.location_uuid,
      stafferId: q.staffer_uuid,
      state: q.state,
      statusId: q.status_uuid,
      reservedFrom: q.reserved_on_from,
      reservedTo: q.reserved_on_to,
      createdFrom: q.created_at_from,
      createdTo: q.created_at_to,
    },
    page,
    Date.now(),
  );
  const data = rows.map(({ booking: b, customer, status, locationTimezone }) => ({
    uuid: b.id,
    location_uuid: b.locationId,
    series_uuid: b.seriesId ?? null,
    start_time: toIso(b.startAt),
    end_time: toIso(b.endAt),
    start_time_local: toLocalIso(b.startAt, locationTimezone),
    end_time_local: toLocalIso(b.endAt, locationTimezone),
    timezone: b.timezone,
    duration: durationObject(Math.round((b.endAt - b.startAt) / MINUTE)),
    created_at: toIso(b.createdAt),
    is_canceled: b.isCanceled,
    is_completed: b.isCompleted,
    customer: renderCustomer(customer),
    status: { uuid: status.id, name: status.name, type: status.type },
  }));
  return c.json(paginate(c.req.url, data, total, page), 200);
};
