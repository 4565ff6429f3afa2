// The request shapes of the two Maps Booking API calls the Worker makes, checked as Google
// documents them (REST v1alpha: JSON in lowerCamelCase, Timestamps as RFC 3339 strings,
// Durations as "<seconds>s", int64 as decimal strings or numbers). Each check answers the
// problems found: none means Google would take the request.

type Json = Record<string, unknown>;

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const DURATION = /^-?\d+(\.\d{1,9})?s$/;
const INT64 = /^-?\d+$/;

const BOOKING_FIELDS = [
  "name",
  "merchantId",
  "serviceId",
  "startTime",
  "duration",
  "clientInformation",
  "status",
  "paymentInformation",
  "partySize",
];
/** The fields a booking notification may change (notification.partners.bookings.patch). */
const MASKABLE = ["startTime", "duration", "partySize", "status", "paymentInformation"];
const STATUSES = [
  "BOOKING_STATUS_UNSPECIFIED",
  "CONFIRMED",
  "PENDING_MERCHANT_CONFIRMATION",
  "PENDING_CLIENT_CONFIRMATION",
  "CANCELED",
  "NO_SHOW",
  "NO_SHOW_PENALIZED",
  "FAILED",
  "DECLINED_BY_MERCHANT",
];
const EXTENDED_FIELDS = [
  "merchantId",
  "serviceId",
  "startTimeRestrict",
  "endTimeRestrict",
  "durationRestrict",
  "resourcesRestrict",
  "availability",
];
const AVAILABILITY_FIELDS = [
  "startTime",
  "duration",
  "spotsTotal",
  "spotsOpen",
  "availabilityTag",
  "resources",
  "paymentOptionId",
  "recurrence",
  "scheduleException",
  "deposit",
  "noShowFee",
  "prepayment",
  "requireCreditCard",
  "ticketTypeId",
  "durationRequirement",
  "schedulingRuleOverrides",
  "confirmationMode",
  "linkoutRequiredReason",
];

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const timestamp = (v: unknown) =>
  typeof v === "string" && RFC3339.test(v) && !Number.isNaN(Date.parse(v));
const duration = (v: unknown) => typeof v === "string" && DURATION.test(v);
const int64 = (v: unknown) =>
  (typeof v === "string" && INT64.test(v)) || (typeof v === "number" && Number.isInteger(v));

/** Google's answer to an unknown JSON name (proto field names or typos alike are refused here). */
const unknownNames = (where: string, o: Json, known: string[]) =>
  Object.keys(o)
    .filter((k) => !known.includes(k))
    .map(
      (k) => `Invalid JSON payload received. Unknown name "${k}" at '${where}': Cannot find field.`,
    );

/** PATCH /v1alpha/notification/partners/{partner}/bookings/{booking}?updateMask=… */
export function checkBookingPatch(
  path: { partnerId: string; bookingId: string },
  updateMask: string | null,
  body: unknown,
): string[] {
  if (!isObject(body)) return ["The request body must be a Booking object."];
  const problems = unknownNames("booking", body, BOOKING_FIELDS);
  const name = `partners/${path.partnerId}/bookings/${path.bookingId}`;
  if (body.name !== name)
    problems.push(`booking.name must be "${name}" (the resource the path names).`);
  for (const field of ["merchantId", "serviceId"]) {
    if (typeof body[field] !== "string" || body[field] === "")
      problems.push(`booking.${field} is required.`);
  }
  if (!updateMask) problems.push("updateMask is required.");
  for (const field of (updateMask ?? "").split(",").filter(Boolean)) {
    if (!MASKABLE.includes(field)) problems.push(`updateMask: "${field}" cannot be updated.`);
    else if (body[field] === undefined)
      problems.push(`updateMask names ${field}, the booking has none.`);
  }
  if (body.startTime !== undefined && !timestamp(body.startTime))
    problems.push("booking.startTime must be an RFC 3339 timestamp.");
  if (body.duration !== undefined && !duration(body.duration))
    problems.push('booking.duration must be a duration in seconds ("900s").');
  if (body.status !== undefined && !STATUSES.includes(body.status as string))
    problems.push(`booking.status: invalid value ${JSON.stringify(body.status)}.`);
  if (body.partySize !== undefined && !int64(body.partySize))
    problems.push("booking.partySize must be an int64.");
  return problems;
}

/** POST /v1alpha/inventory/partners/{partner}/availability:replace */
export function checkAvailabilityReplace(body: unknown): string[] {
  if (!isObject(body))
    return ["The request body must be a BatchReplaceServiceAvailabilityRequest."];
  const problems = unknownNames("", body, ["extendedServiceAvailability"]);
  const entries = body.extendedServiceAvailability;
  if (!Array.isArray(entries) || entries.length === 0)
    return [...problems, "extendedServiceAvailability must list at least one entry."];
  entries.forEach((entry: unknown, i) => {
    const at = `extendedServiceAvailability[${i}]`;
    if (!isObject(entry)) {
      problems.push(`${at} must be an object.`);
      return;
    }
    problems.push(...unknownNames(at, entry, EXTENDED_FIELDS));
    for (const field of ["merchantId", "serviceId"]) {
      if (typeof entry[field] !== "string" || entry[field] === "")
        problems.push(`${at}.${field} is required.`);
    }
    for (const field of ["startTimeRestrict", "endTimeRestrict"]) {
      if (entry[field] !== undefined && !timestamp(entry[field]))
        problems.push(`${at}.${field} must be an RFC 3339 timestamp.`);
    }
    const from =
      typeof entry.startTimeRestrict === "string" ? Date.parse(entry.startTimeRestrict) : null;
    const to = typeof entry.endTimeRestrict === "string" ? Date.parse(entry.endTimeRestrict) : null;
    if (from !== null && to !== null && !(to > from))
      problems.push(`${at}: endTimeRestrict must follow startTimeRestrict.`);
    if (entry.durationRestrict !== undefined && !duration(entry.durationRestrict))
      problems.push(`${at}.durationRestrict must be a duration in seconds.`);
    if (!Array.isArray(entry.availability)) {
      problems.push(`${at}.availability must be a list (empty clears the window).`);
      return;
    }
    entry.availability.forEach((slot: unknown, j) => {
      const sat = `${at}.availability[${j}]`;
      if (!isObject(slot)) {
        problems.push(`${sat} must be an object.`);
        return;
      }
      problems.push(...unknownNames(sat, slot, AVAILABILITY_FIELDS));
      if (!timestamp(slot.startTime))
        problems.push(`${sat}.startTime must be an RFC 3339 timestamp.`);
      if (!duration(slot.duration)) problems.push(`${sat}.duration must be a duration in seconds.`);
      if (!int64(slot.spotsTotal) || !int64(slot.spotsOpen)) {
        problems.push(`${sat}: spotsTotal and spotsOpen are int64.`);
      } else if (Number(slot.spotsOpen) > Number(slot.spotsTotal) || Number(slot.spotsOpen) < 0) {
        problems.push(`${sat}: spotsOpen must be between 0 and spotsTotal.`);
      }
      const start = typeof slot.startTime === "string" ? Date.parse(slot.startTime) : NaN;
      if ((from !== null && start < from) || (to !== null && start >= to))
        problems.push(`${sat}.startTime is outside [startTimeRestrict, endTimeRestrict).`);
    });
  });
  return problems;
}
