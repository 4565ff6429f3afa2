import type { RouteHandler } from "@hono/zod-openapi";
import { z } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import ical, { ICalEventStatus } from "ical-generator";
import { loadBookingForFeed } from "../../queries/bookings";
import type { OpenEnv } from "../../../http/env";
import { constantTimeEqual } from "../../../tenancy/api-keys";
import { notFound } from "../../../platform/errors";
import { headerRef } from "../../../http/openapi-headers";
import { errorCodes, queryErrors, rateLimitError } from "../../../http/responses";
import { icsText } from "../../views/ics";
import { parseIcalLinkToken } from "../../ical-token";
import { routeLink } from "../../../http/route-link";
import { BookingPath } from "./schema";

export const route = defineRoute({
  operationId: "getBookingIcal",
  keys: "none",
  method: "get",
  path: "/bookings/{booking_uuid}/ical",
  tags: ["Bookings"],
  summary: "The booking as an iCalendar file (the booking's ical link)",
  description:
    "Needs no API key: the link's token is the credential, so a customer's calendar app can subscribe to it.",
  request: { params: BookingPath, query: z.object({ token: z.string().max(64) }) },
  responses: {
    200: {
      content: { "text/calendar": { schema: z.string() } },
      description: "An .ics file",
      headers: { "Content-Disposition": headerRef("ContentDisposition") },
    },
    ...rateLimitError,
    ...queryErrors,
    404: errorCodes("No such booking, or the token does not match it", ["not_found"]),
  },
});

export const handler: RouteHandler<typeof route, OpenEnv> = async (c) => {
  const { booking_uuid: id } = c.req.valid("param");
  const { token } = c.req.valid("query");
  // Unknown booking, wrong token and a workspace that is not there (or not the booking's) look
  // the same: the token is the only credential here.
  const link = parseIcalLinkToken(token);
  const db = link ? await routeLink(c, link.workspaceId) : null;
  const row = link && db ? await loadBookingForFeed(db, id) : null;
  const opens =
    link !== null &&
    row !== null &&
    row.booking.workspaceId === link.workspaceId &&
    (await constantTimeEqual(link.icalToken, row.booking.icalToken));
  if (!row || !opens) throw notFound("Booking");
  const { booking, location } = row;
  // No METHOD: the file is the booking as stored, not an iTIP message (see docs/decisions.md).
  const calendar = ical({
    name: location.name,
    prodId: { company: "salon-api", product: "bookings" },
  });
  // RFC 5545 §3.8.7: apps replace an event they hold only when its SEQUENCE grew, and without
  // a METHOD the DTSTAMP is the event's last revision. Both come from the booking, so every
  // change (each bumps the version) reaches a calendar, and an unchanged booking is the same file.
  const changed = new Date(booking.updatedAt);
  calendar.createEvent({
    id: booking.id,
    sequence: booking.version,
    stamp: changed,
    lastModified: changed,
    created: new Date(booking.createdAt),
    start: new Date(booking.startAt),
    end: new Date(booking.endAt),
    summary: row.serviceNames.join(", "),
    description: booking.publicNotes || null,
    location: location.name,
    // Times stay in UTC: calendar apps show them in the viewer's zone without a VTIMEZONE block.
    status: booking.isCanceled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return c.body(icsText(calendar), 200, {
    "content-type": "text/calendar; charset=utf-8",
    "content-disposition": `attachment; filename="booking-${booking.id}.ics"`,
  });
};
