import { instantMs, uuid } from "../../../platform/fields";
import { PaginationQuery } from "../../../platform/pagination";

/** The most days one listing may span, as a time-slot search. */
export const MAX_SESSION_DAYS = 62;

export const ListSessionsQuery = PaginationQuery.extend({
  location_uuid: uuid("location_uuid"),
  service_uuid: uuid("service_uuid").optional(),
  from: instantMs.openapi({ description: "Sessions starting at or after this instant" }),
  to: instantMs.openapi({
    description: `Sessions starting before this instant; at most ${MAX_SESSION_DAYS} days after from`,
  }),
}).superRefine((q, ctx) => {
  if (q.to <= q.from)
    ctx.addIssue({ code: "custom", path: ["to"], message: "Must be after from." });
  else if (q.to - q.from > MAX_SESSION_DAYS * 86_400_000)
    ctx.addIssue({
      code: "custom",
      path: ["to"],
      message: `The range may span at most ${MAX_SESSION_DAYS} days.`,
    });
});
