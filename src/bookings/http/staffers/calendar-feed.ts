import { type RouteHandler, z } from "@hono/zod-openapi";
import type { PublicEnv } from "../../../http/env";
import { PUBLIC_BASE } from "../../../http/api-paths";
import { now } from "../../../platform/clock";
import { defineRoute } from "../../../http/operations";
import {
  authErrors,
  conflictErrors,
  json,
  notFoundError,
  queryErrors,
} from "../../../http/responses";
import { rotateCalendarFeed } from "../../staffers/calendar-feed";
import { StafferPath } from "../../../calendar/http/blocked-spots/schema";

export const CalendarFeedSchema = z
  .object({
    url: z.string().openapi({
      description:
        "The staffer's secret feed URL (`…/feeds/<token>.ics`). Shown once: only a hash of its token is kept. Calling this operation again replaces it, and the old URL answers 404.",
      example:
        "https://api.example.com/api/public/v2/feeds/feed_PyuMHppNTm-LehwtPk9aa96iu_HI8RZLPVxS8q3qDjwfHN8uimuU96w_i6CmWx5M.ics",
    }),
  })
  .openapi("CalendarFeed");

export const route = defineRoute({
  operationId: "rotateStafferCalendarFeed",
  keys: "secret",
  method: "post",
  path: "/staffers/{staffer_uuid}/calendar-feed",
  tags: ["Staff calendar"],
  summary: "Make (or replace) a staffer's calendar feed URL",
  description:
    "A new secret URL of an iCalendar feed (RFC 5545) of the staffer's bookings and blocked spots that start from 30 days ago to 180 days ahead, for a phone's or a desktop calendar app to subscribe to. The URL needs no API key (its token, 256 random bits, is the credential). Every call makes a new one and the previous URL stops working (404): rotate it when it leaked.",
  request: { params: StafferPath },
  responses: {
    201: json(CalendarFeedSchema, "The feed's new URL"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("staffer"),
    ...conflictErrors(),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { staffer_uuid: stafferId } = c.req.valid("param");
  const token = await rotateCalendarFeed(c.var.deps.scope, stafferId, now());
  return c.json({ url: `${c.var.deps.render.origin}${PUBLIC_BASE}/feeds/${token}.ics` }, 201);
};
