import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../../http/operations";
import type { AdminEnv } from "../../../../http/env";
import {
  authErrors,
  bodyErrors,
  errorCodes,
  json,
  jsonBody,
  workspaceNotFound,
} from "../../../../http/responses";
import { type FieldNames, withFields } from "../../../../http/request-fields";
import { type BlockResourceSubject, blockResourceTime } from "../../../blocks/resource-block";
import { ResourceParams } from "../../../../catalogue/http/admin/resources/schema";
import { CreateResourceBlockBody, renderResourceBlock, ResourceBlockSchema } from "./schema";
import { workspaceDeps } from "../../../../http/admin-deps";

export const route = defineRoute({
  operationId: "createWorkspaceResourceBlockedSpot",
  keys: "admin",
  method: "post",
  path: "/workspaces/{ws}/resources/{uuid}/blocked-spots",
  tags: ["Resources"],
  summary: "Block time on a resource (maintenance): one unit or all of them",
  description:
    "The blocked units cannot be booked in that range. Like a staffer's blocked spot, the range may be laid over existing bookings, which stay as they are, and over a hold made with a publishable key (a booking widget's), which ends: that whole reservation is released. A hold made with a secret key refuses it (409 `slot_unavailable` until it is used, deleted or expires). `unit` omitted blocks every unit.",
  request: { params: ResourceParams, ...jsonBody(CreateResourceBlockBody) },
  responses: {
    201: json(ResourceBlockSchema, "Created"),
    ...authErrors,
    ...bodyErrors,
    ...workspaceNotFound("resource"),
    409: errorCodes("The range covers a live reservation made with a secret key", [
      "slot_unavailable",
    ]),
  },
});

const FIELDS: FieldNames<BlockResourceSubject> = { unit: "unit" };

export const handler: RouteHandler<typeof route, AdminEnv> = async (c) => {
  const { ws, uuid } = c.req.valid("param");
  const body = c.req.valid("json");
  const row = await withFields(FIELDS, () =>
    blockResourceTime(workspaceDeps(c, ws), {
      resourceId: uuid,
      unit: body.unit,
      startsAt: Date.parse(body.starts_at),
      endsAt: Date.parse(body.ends_at),
      comment: body.comment,
    }),
  );
  return c.json(renderResourceBlock(row), 201);
};
