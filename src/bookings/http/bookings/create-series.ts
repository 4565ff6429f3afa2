import type { RouteHandler } from "@hono/zod-openapi";
import { createSeries, type SeriesSubject } from "../../series/create";
import type { PublicEnv } from "../../../http/env";
import { defineRoute } from "../../../http/operations";
import { type FieldNames, withFields } from "../../../http/request-fields";
import {
  authErrors,
  calendarWriteErrors,
  conflictErrors,
  json,
  jsonBody,
} from "../../../http/responses";
import { seriesObject } from "../../views/series";
import { clientFields } from "./client-fields";
import { SINGLE_BOOKING_FIELDS } from "./fields";
import { CreateSeriesBody, CUSTOMER_MATCH, SeriesCreated } from "./schema";

/** A single booking's fields, and the rule. */
const SERIES_FIELDS: FieldNames<SeriesSubject> = {
  ...SINGLE_BOOKING_FIELDS,
  rule: "recurrence.rule",
};

export const route = defineRoute({
  operationId: "createBookingSeries",
  // A stranger holding the publishable key must not be able to hold a salon's year.
  keys: "secret",
  method: "post",
  path: "/bookings/series",
  tags: ["Bookings", "Series"],
  summary: "Book a recurring series (a standing appointment)",
  description: `Books every occurrence of \`recurrence.rule\` from reserved_on, each checked as a single booking is (working hours, notice, blocked time, holds, resources, the booking form). One staffer serves every occurrence when one can (staffer_uuid, else the first eligible staffer free for all of them); otherwise each occurrence is auto-allocated. All occurrences are claimed and written in one atomic step: with on_conflict reject any occurrence that cannot be booked makes the request 409 slot_unavailable with \`conflicts\` and nothing is written; with skip the rest are booked and the others listed in \`skipped\`. Each occurrence is a booking with its own order (each visit is paid on its day), a booking-created event and its reminders; the customer gets one confirmation listing every date. ${CUSTOMER_MATCH} Secret keys only.`,
  request: jsonBody(CreateSeriesBody),
  responses: {
    201: json(SeriesCreated, "Created"),
    ...authErrors,
    ...calendarWriteErrors,
    ...conflictErrors(
      "An occurrence cannot be booked (`slot_unavailable`, with `conflicts`: each occurrence that does not fit, with alternatives); with skip, only when none can. With customer_package_uuid every occurrence takes a credit: the package must hold one for each occurrence (lasting past its start), else `package_unavailable` and nothing is booked",
      ["slot_unavailable", "package_unavailable"],
    ),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  const created = await withFields(SERIES_FIELDS, () =>
    createSeries(c.var.deps, {
      country: c.var.workspace.country,
      locationId: body.location_uuid,
      start: Date.parse(body.reserved_on),
      serviceId: body.service_uuid,
      stafferId: body.staffer_uuid,
      quantity: body.quantity,
      packageId: body.customer_package_uuid,
      rule: body.recurrence.rule,
      onConflict: body.on_conflict,
      ...clientFields(body),
    }),
  );
  return c.json(
    {
      series: seriesObject(created.series),
      bookings: created.bookings,
      skipped: created.skipped,
    },
    201,
  );
};
