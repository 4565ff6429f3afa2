import { env } from "cloudflare:workers";
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
 * each booked through `POST /bookings` (so calendars, entries, reminders and
 * events are as a real booking leaves them), then tied together as a series
 * in D1: the `series` row and each booking's `series_id`.
 *
 * The ONE place that makes series for the series-change tests: once the
 * series create (`POST /bookings/series`) is merged, this becomes one call
 * to it with the same starts, and no test changes.
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
    rule?: string;
  },
): Promise<SeededSeries> {
  const bookings: string[] = [];
  let customerId = "";
  for (const start of options.starts) {
    const res = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: options.serviceId ?? salon[options.service ?? "cut"].uuid,
        staffer_uuid: salon.staffers[options.staffer ?? 0]?.uuid,
        reserved_on: start,
        ...customer(options.phone ?? "+49 151 70000000"),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    bookings.push(res.body.uuid);
    customerId = res.body.customer_uuid;
  }
  const id = crypto.randomUUID();
  const now = Date.now();
  await env.DB.batch([
    env.DB.prepare(
      "insert into series (id, workspace_id, location_id, customer_id, rule, count, version, created_at, updated_at) values (?, ?, ?, ?, ?, ?, 0, ?, ?)",
    ).bind(
      id,
      salon.ws.id,
      salon.location.uuid,
      customerId,
      options.rule ?? `FREQ=WEEKLY;INTERVAL=1;COUNT=${options.starts.length}`,
      options.starts.length,
      now,
      now,
    ),
    env.DB.prepare(
      "update bookings set series_id = ? where id in (select value from json_each(?))",
    ).bind(id, JSON.stringify(bookings)),
  ]);
  return { id, bookings, customerId };
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
