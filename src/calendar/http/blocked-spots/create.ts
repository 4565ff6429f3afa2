import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { blockTime } from "../../blocks/blocked-spot";
import { type FieldNames, withFields } from "../../../http/request-fields";
import { type BlockTimeSubject } from "../../blocks/blocked-spot";
import type { PublicEnv } from "../../../http/env";
import {
  authErrors,
  bodyErrors,
  conflictErrors,
  json,
  jsonBody,
  notFoundError,
} from "../../../http/responses";
import { BlockedSpotSchema, CreateBlockedSpotBody, renderBlockedSpot, StafferPath } from "./schema";

export const route = defineRoute({
  operationId: "createStafferBlockedSpot",
  keys: "secret",
  method: "post",
  path: "/staffers/{staffer_uuid}/blocked-spots",
  tags: ["Staff calendar"],
  summary: "Block a time range on a staffer's calendar",
  description:
    "Blocked ranges disappear from time-slot search and cannot be booked. They may be laid over existing bookings (a sick day), which stay as they are, and over a hold made with a publishable key (a booking widget's), which ends: that whole reservation is released. A hold made with a secret key refuses it (409 slot_unavailable until it is used, deleted or expires).",
  request: { params: StafferPath, ...jsonBody(CreateBlockedSpotBody) },
  responses: {
    201: json(BlockedSpotSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...notFoundError("staffer"),
    ...conflictErrors(
      "The range covers a live reservation made with a secret key (`slot_unavailable`)",
      ["slot_unavailable"],
    ),
  },
});

const FIELDS: FieldNames<BlockTimeSubject> = { location: "location_uuid" };

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { staffer_uuid: stafferId } = c.req.valid("param");
  const body = c.req.valid("json");
  const row = await withFields(FIELDS, () =>
    blockTime(c.var.deps, {
      stafferId,
      locationId: body.location_uuid,
      startsAt: body.starts_at,
      endsAt: body.ends_at,
      comment: body.comment,
      class: body.class,
    }),
  );
  return c.json(renderBlockedSpot(row), 201);
};
