/**
 * operationIds of both OpenAPI documents (client generators name their
 * methods by them). Derived from method and path, so a new route gets one
 * without a change here:
 *
 * - a path ending in a parameter is one record: GET `get`, PUT `replace`,
 *   PATCH `update`, DELETE `delete`, POST `create` + the resource names,
 *   each in the singular (`GET /webhooks/{webhook_id}` → `getWebhook`);
 * - a path ending in a name is a collection or a sub-resource: GET `list`,
 *   POST `create`, PUT `set`, DELETE `delete` + the names before it (in the
 *   singular when a parameter follows them) and the last name, in the plural
 *   for `list` and as written otherwise (`GET /webhooks/{webhook_id}/deliveries`
 *   → `listWebhookDeliveries`, `PUT /bookings/{booking_uuid}/status` →
 *   `setBookingStatus`).
 *
 * Operations that are actions rather than records read better by their verb;
 * they are named in `NAMED`, by method and path. A route may also set its own
 * `operationId`, which wins over both. Every operationId is unique within its
 * document (generation throws otherwise, and the tests generate both).
 */
export const NAMED: Readonly<Record<string, string>> = {
  // Public API v2
  "GET /locations/{location_uuid}/time-slots": "listTimeSlots",
  "POST /locations/{location_uuid}/time-slots/cart": "listCartTimeSlots",
  "POST /locations/{location_uuid}/time-slots/cart/next": "findNextCartDate",
  "POST /bookings/cart": "createCartBookings",
  "GET /bookings/{booking_uuid}/ical": "getBookingIcal",
  "PUT /bookings/{booking_uuid}/reschedule": "rescheduleBooking",
  "PUT /bookings/{booking_uuid}/staffer": "changeBookingStaffer",
  "PUT /bookings/{booking_uuid}/services": "replaceBookingServices",
  "PUT /bookings/{booking_uuid}/status/complete": "completeBooking",
  "PUT /bookings/{booking_uuid}/status/cancel": "cancelBooking",
  "POST /bookings/{booking_uuid}/public_notes": "setBookingPublicNotes",
  "POST /orders/calculate": "calculateOrder",
  "POST /orders/{order_uuid}/pay": "payOrder",
  "POST /webhooks/{webhook_id}/enable": "enableWebhook",
  "POST /webhooks/{webhook_id}/disable": "disableWebhook",
  "POST /webhooks/{webhook_id}/rotate-secret": "rotateWebhookSecret",
  // Both APIs
  "GET /openapi.json": "getOpenApiDocument",
  // Management API v1
  "GET /workspaces/{ws}/staffers/{uuid}/calendar": "auditStafferCalendar",
  "POST /workspaces/{ws}/staffers/{uuid}/calendar/rebuild": "rebuildStafferCalendar",
};

const ITEM_VERBS: Record<string, string> = {
  get: "get",
  put: "replace",
  patch: "update",
  delete: "delete",
  post: "create",
};
const COLLECTION_VERBS: Record<string, string> = {
  get: "list",
  put: "set",
  patch: "update",
  delete: "delete",
  post: "create",
};

const isParam = (segment: string) => segment.startsWith("{");

/** `time-slots` → `TimeSlots`, `public_notes` → `PublicNotes`, `openapi.json` → `OpenapiJson`. */
const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]?.toUpperCase() + w.slice(1))
    .join("");

/** English plurals of the resource names in use (`categories`, `statuses`, `goods`). */
export const singular = (name: string) => {
  if (/ies$/.test(name)) return name.replace(/ies$/, "y");
  if (/(ss|us)es$/.test(name)) return name.replace(/es$/, "");
  if (/[^s]s$/.test(name)) return name.slice(0, -1);
  return name;
};

/** The operationId of `method path` (OpenAPI path, `{param}` form); see the module comment. */
export function operationIdFor(method: string, path: string): string {
  const verb = method.toLowerCase();
  const named = NAMED[`${verb.toUpperCase()} ${path}`];
  if (named) return named;
  const segments = path.split("/").filter(Boolean);
  const last = segments.length - 1;
  const item = segments.length > 0 && isParam(segments[last] ?? "");
  const words: string[] = [];
  segments.forEach((segment, i) => {
    if (isParam(segment)) return;
    const followedByParam = isParam(segments[i + 1] ?? "");
    const isLast = i === last;
    // The last name of a collection stays as written (plural for a list); others name one record.
    words.push(pascal(followedByParam || (!isLast && !item) ? singular(segment) : segment));
  });
  const prefix = (item ? ITEM_VERBS : COLLECTION_VERBS)[verb] ?? verb;
  let name = words.join("");
  // `create` and `set` of a collection name one record: POST /services → createService.
  if (!item && prefix === "create") {
    const lastWord = segments[last] ?? "";
    name = words.slice(0, -1).join("") + pascal(singular(lastWord));
  }
  return prefix + name;
}
