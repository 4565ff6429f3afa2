import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { PublicEnv } from "../../../http/env";
import { authErrors, conflictErrors, notFoundError, queryErrors } from "../../../http/responses";
import { leaveWaitlist } from "../../leave";
import { EntryPath } from "./schema";

export const route = defineRoute({
  operationId: "deleteWaitlistEntry",
  keys: "publishable",
  method: "delete",
  path: "/waitlist/{entry_uuid}",
  tags: ["Waitlist"],
  summary: "Take an entry off the waitlist",
  description:
    "The entry is canceled and matched no more; an offer it holds is released first, so its time goes to the next in line. A booked or expired entry is 409. A secret key may delete any entry of its workspace; a publishable key only the entries it made (others are 404).",
  request: { params: EntryPath },
  responses: {
    204: { description: "Deleted; empty body" },
    ...authErrors,
    ...queryErrors,
    ...notFoundError("waitlist entry"),
    ...conflictErrors("The entry is booked or expired (`conflict`)", ["conflict"]),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const { entry_uuid: id } = c.req.valid("param");
  await leaveWaitlist(c.var.deps, id, {
    apiKeyId: c.var.apiKey.id,
    publishable: c.var.apiKey.kind === "publishable",
  });
  return c.body(null, 204);
};
