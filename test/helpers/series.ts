import { Temporal } from "temporal-polyfill";
import { expect } from "vitest";
import { customer, type Salon } from "./salon";

/** A series as the tests act on it: its id and its occurrences' booking ids, earliest first. */
export interface SeededSeries {
  id: string;
  bookings: string[];
  customerId: string;
}

/**
 * A recurring series with an occurrence at each of `starts` (UTC instants),
 * made through `POST /bookings/series` exactly as a client makes one: one
 * request with the first start as `reserved_on`, a rule that yields `starts`
 * (given, or derived from them: every `starts` at one local time in the
 * location's zone, a fixed number of days apart) and `on_conflict: reject`.
 * So the series the change tests act on has what the API gives a series:
 * an order per occurrence, one confirmation listing every date, events with
 * `series_uuid`. Refuses (throws) starts no rule yields, rather than seeding
 * a series the API could not have made.
 */
export async function seedSeries(
  salon: Salon,
  options: {
    starts: string[];
    staffer?: number;
    service?: "cut" | "colour";
    /** Any other service, by uuid (one that needs a resource). */
    serviceId?: string;
    phone?: string;
    /** The customer's `customer_browser_language` (a new customer's message language). */
    language?: string;
    /** The RRULE to send; derived from `starts` when not given. */
    rule?: string;
  },
): Promise<SeededSeries> {
  const rule = options.rule ?? ruleOf(options.starts, salon.location.timezone);
  const res = await salon.ws.api("/bookings/series", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: options.serviceId ?? salon[options.service ?? "cut"].uuid,
      staffer_uuid: salon.staffers[options.staffer ?? 0]?.uuid,
      reserved_on: options.starts[0],
      recurrence: { rule },
      on_conflict: "reject",
      ...customer(options.phone ?? "+49 151 70000000"),
      ...(options.language ? { customer_browser_language: options.language } : {}),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const bookings: { uuid: string; start_time: string; customer_uuid: string }[] = res.body.bookings;
  // The rule made exactly the starts asked for (same instants, same order).
  expect(bookings.map((b) => Date.parse(b.start_time))).toEqual(
    options.starts.map((s) => Date.parse(s)),
  );
  return {
    id: res.body.series.uuid,
    bookings: bookings.map((b) => b.uuid),
    customerId: res.body.series.customer_uuid,
  };
}

/**
 * The RRULE whose occurrences are `starts` in `zone`: one local time, the
 * same number of days between each two (WEEKLY when a whole number of weeks,
 * else DAILY). Throws for starts no rule the API takes can make.
 */
export function ruleOf(starts: string[], zone: string): string {
  const local = starts.map((s) => Temporal.Instant.from(s).toZonedDateTimeISO(zone));
  const [first] = local;
  const steps = local
    .slice(1)
    .map((l, i) => (local[i] as Temporal.ZonedDateTime).toPlainDate().until(l.toPlainDate()).days);
  const step = steps[0] ?? 0;
  const ruled =
    first !== undefined &&
    local.length >= 2 &&
    local.length <= 52 &&
    step > 0 &&
    steps.every((d) => d === step) &&
    local.every((l) => l.toPlainTime().equals(first.toPlainTime()));
  if (!ruled) throw new Error(`no series rule makes these starts in ${zone}: ${starts.join(", ")}`);
  return step % 7 === 0
    ? `FREQ=WEEKLY;INTERVAL=${step / 7};COUNT=${starts.length}`
    : `FREQ=DAILY;INTERVAL=${step};COUNT=${starts.length}`;
}

/** Weekly starts from `first` (a UTC instant), `count` of them, at the same UTC time. */
export const weekly = (first: string, count: number) =>
  Array.from({ length: count }, (_, i) =>
    new Date(Date.parse(first) + i * 7 * 86_400_000).toISOString().replace(".000Z", "Z"),
  );

/** `count` weekly starts at `hhmm` local time in `zone` from `firstDate` on (UTC instants). */
export const weeklyLocal = (
  firstDate: string,
  hhmm: string,
  count: number,
  zone = "Europe/Berlin",
) =>
  Array.from({ length: count }, (_, i) =>
    Temporal.PlainDateTime.from(`${firstDate}T${hhmm}`)
      .add({ days: 7 * i })
      .toZonedDateTime(zone)
      .toInstant()
      .toString(),
  );

/** A Server-Timing metric's number (`name;…desc="N…"`). */
export function timing(headers: Headers, name: string): number {
  const match = new RegExp(`(?:^|, *)${name};(?:dur=[\\d.]+;)?desc="(\\d+)`).exec(
    headers.get("server-timing") ?? "",
  );
  if (!match?.[1]) throw new Error(`no ${name} in Server-Timing: ${headers.get("server-timing")}`);
  return Number(match[1]);
}
