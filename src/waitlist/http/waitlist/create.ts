import type { RouteHandler } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import type { PublicEnv } from "../../../http/env";
import { PUBLIC_HOLDS } from "../../../platform/rules/public-holds";
import { PUBLIC_OFFERS, WAITLIST } from "../../rules";
import { type FieldNames, withFields } from "../../../http/request-fields";
import { authErrors, bodyErrors, conflictErrors, json, jsonBody } from "../../../http/responses";
import { WaitlistEntrySchema } from "../../views/waitlist-entry";
import { joinWaitlist, type JoinSubject } from "../../join";
import { JoinWaitlistBody } from "./schema";

const FIELDS: FieldNames<JoinSubject> = {
  location: "location_uuid",
  services: "services",
  start: "from",
  service: ({ service }) => `services.${service}.service_uuid`,
  staffer: ({ service }) => `services.${service}.staffer_uuid`,
  quantity: ({ service }) => `services.${service}`,
  phone: "customer_phone",
  to: "to",
  from: "from",
  times: ({ index }) => `times.${index}.end`,
};

export const route = defineRoute({
  operationId: "joinWaitlist",
  keys: "publishable",
  method: "post",
  path: "/waitlist",
  tags: ["Waitlist"],
  summary: "Wait for time that is not free yet",
  description: `The customer waits for the services (back to back, each with its staffer or anyone) on a date from \`from\` to \`to\`, within \`times\` when given. Whenever time frees at the location (a cancel or move, a staffer change, a replaced service, a reservation released or expired, a blocked spot or external busy time removed), the oldest waiting entry it fits gets an offer: a reservation holding the earliest fitting start for the workspace's waitlist_offer_minutes, a waitlist-offer message with a link that books it, the \`waitlist-offered\` event. An offer that lapses goes to the next entry; the first waits again (never offered that time again). Time already free when the entry is made is offered at once. A phone number may have ${WAITLIST.perPhone} entries waiting or offered at once (409 \`too_many_entries\`), counted per asker: staff's entries, and each publishable key's visitor (key and client address) its own; a visitor ${WAITLIST.perVisitor} in all, and only services shown in the widget. A publishable key's entry is shaped like its reservation: at most ${PUBLIC_HOLDS.services} services and ${PUBLIC_HOLDS.staffMinutes / 60} hours of staff time (the sum of their durations), else 422. Its offer is the joining visitor's reservation: it counts among the visitor's ${PUBLIC_HOLDS.perHolder} live holds, and an entry whose visitor already holds ${PUBLIC_HOLDS.perHolder}, has made its bookings of the day, or has had ${PUBLIC_OFFERS.perVisitor} offers in 24 hours keeps waiting while the time goes to the next entry; the workspace makes at most ${PUBLIC_OFFERS.perWorkspace} offers to publishable keys' entries in 24 hours. Booking the offer counts among the visitor's bookings of the day.`,
  request: jsonBody(JoinWaitlistBody),
  responses: {
    201: json(WaitlistEntrySchema, "Waiting"),
    ...authErrors,
    ...bodyErrors,
    ...conflictErrors(
      "The phone or the visitor already has the most entries (`too_many_entries`)",
      ["too_many_entries"],
    ),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const body = c.req.valid("json");
  const entry = await withFields(FIELDS, () =>
    joinWaitlist(c.var.deps.scope, {
      locationId: body.location_uuid,
      services: body.services.map((s) => ({
        serviceId: s.service_uuid,
        stafferId: s.staffer_uuid,
      })),
      phone: body.customer_phone,
      country: c.var.workspace.country,
      firstName: body.customer_first_name,
      email: body.customer_email,
      language: body.customer_browser_language,
      from: body.from,
      to: body.to,
      times: body.times,
      apiKeyId: c.var.apiKey.id,
      visitor: c.var.deps.visitor,
      messageVisitor: c.var.deps.messageVisitor,
    }),
  );
  return c.json(entry, 201);
};
