import type { RouteHandler } from "@hono/zod-openapi";
import { parseRange } from "../../../calendar/availability/search-range";
import { managedMoveStarts } from "../../manage/moves";
import { renderDays } from "../../../calendar/rules";
import type { OpenEnv } from "../../../http/env";
import { toIso } from "../../../platform/clock";
import { defineRoute } from "../../../http/operations";
import { withFields } from "../../../http/request-fields";
import { errorCodes, json, queryErrors } from "../../../http/responses";
import { RANGE_FIELDS } from "../../../calendar/http/time-slots/schema";
import { managedScope } from "./deps";
import { manageErrors } from "./responses";
import { MAX_MOVE_RANGE_DAYS, MoveSlotsQuery, MoveSlotsSchema, TokenPath } from "./schema";

export const route = defineRoute({
  operationId: "listManagedBookingTimeSlots",
  keys: "none",
  method: "get",
  path: "/manage/{token}/time-slots",
  tags: ["Manage links"],
  summary: "Free starts to move the link's booking to",
  description:
    "Every start in the range where the booking fits as it is (the same staffers, services and shape; its own current time is not counted as busy, and its current start is not listed): exactly the starts `POST /manage/{token}/reschedule` accepts now. range_start and range_end are dates YYYY-MM-DD (whole days in the location's zone, inclusive) or ISO 8601 instants; at most 62 days. `timezone` renders the times on the client's clock. A canceled or completed booking answers 409 booking_closed, and one whose change window has passed 409 policy_window_passed.",
  request: { params: TokenPath, query: MoveSlotsQuery },
  responses: {
    200: json(MoveSlotsSchema, "Starts per date"),
    ...manageErrors,
    ...queryErrors,
    409: errorCodes(
      "The booking is completed or canceled, or the location's change_offset before its start has passed",
      ["booking_closed", "policy_window_passed"],
    ),
  },
});

export const handler: RouteHandler<typeof route, OpenEnv> = async (c) => {
  const { token } = c.req.valid("param");
  const q = c.req.valid("query");
  const { grant, scope } = await managedScope(c, token);
  const range = await withFields(RANGE_FIELDS, () =>
    parseRange(q.range_start, q.range_end, MAX_MOVE_RANGE_DAYS),
  );
  const found = await managedMoveStarts(scope, grant, range);
  const display = q.timezone ?? found.timezone;
  const days = renderDays(
    [
      {
        date: found.fromDate,
        slots: found.starts.map((start) => ({
          start,
          end: start + found.lengthMs,
          quantity: 1,
        })),
        intervals: [],
      },
    ],
    display,
  );
  return c.json(
    {
      timezone: display,
      dates: days
        .filter((d) => d.slots.length > 0)
        .map((d) => ({
          date: d.date,
          slots: d.slots.map((s) => ({
            start: s.start,
            start_formatted: s.start_formatted,
            end: s.end,
            end_formatted: s.end_formatted,
            reserved_on: toIso(s.startMs),
          })),
        })),
    },
    200,
  );
};
