import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { calendarFor } from "../../src/calendar/client";
import { localDateTimeToInstant } from "../../src/calendar/rules";
import { runDesk as runDeskNow } from "../../src/waitlist/desk";
import type { Client } from "./http";
import { until } from "./messages";
import type { Salon } from "./salon";
import { everyShard } from "./every-shard";

/** A local time on `date` in the test salon's zone (Europe/Berlin) as the instant the API answers. */
export const local = (date: string, hhmm: string) =>
  new Date(localDateTimeToInstant(date, hhmm, "Europe/Berlin"))
    .toISOString()
    .replace(/\.000Z$/, "Z");

/** The Monday at least `weeks` weeks from today (external calendars look 180 days ahead). */
export function mondayIn(weeks: number): string {
  const day = new Date(Date.now() + weeks * 7 * 86_400_000);
  const monday = new Date(day.getTime() + ((8 - day.getUTCDay()) % 7) * 86_400_000);
  return monday.toISOString().slice(0, 10);
}

/** `date` and `days` days later. */
export const plusDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * The Monday the waitlist tests wait for: two weeks ahead, within a widget's
 * reach (a publishable key's entry starts at most 90 days ahead).
 */
export const WAIT_DAY = mondayIn(2);

/**
 * A staffer's working day (09–18 local) with no free time left: a cut booked
 * at `hhmm` (60 minutes with its pause) and blocked spots around it.
 * Answers the booking's uuid.
 */
export async function fullDay(salon: Salon, date: string, staffer = 0, hhmm = "09:00") {
  const stafferId = salon.staffers[staffer]?.uuid ?? "";
  const start = local(date, hhmm);
  const end = new Date(Date.parse(start) + 60 * 60_000).toISOString().replace(/\.000Z$/, "Z");
  for (const [from, to] of [
    [local(date, "09:00"), start],
    [end, local(date, "18:00")],
  ] as const) {
    if (from === to) continue;
    const spot = await salon.ws.api(`/staffers/${stafferId}/blocked-spots`, {
      method: "POST",
      body: { location_uuid: salon.location.uuid, starts_at: from, ends_at: to },
    });
    expect(spot.status, JSON.stringify(spot.body)).toBe(201);
  }
  const booked = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: stafferId,
      reserved_on: start,
      customer_phone: "+49 151 11111111",
      customer_first_name: "Booked",
    },
  });
  expect(booked.status, JSON.stringify(booked.body)).toBe(201);
  return booked.body.uuid as string;
}

/** POST /waitlist for a cut on `date` (by default), for `phone`. */
export const join = (
  salon: Salon,
  api: Client,
  fields: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) =>
  api("/waitlist", {
    method: "POST",
    headers,
    body: {
      location_uuid: salon.location.uuid,
      services: [{ service_uuid: salon.cut.uuid }],
      customer_phone: "+49 151 22222222",
      customer_first_name: "Wanda",
      customer_email: "wanda@example.com",
      from: WAIT_DAY,
      to: WAIT_DAY,
      ...fields,
    },
  });

/** A new entry (201 checked); its uuid. */
export async function joined(salon: Salon, api: Client, fields: Record<string, unknown> = {}) {
  const res = await join(salon, api, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
}

export const cancel = async (salon: Salon, bookingId: string) => {
  const res = await salon.ws.api(`/bookings/${bookingId}/status/cancel`, {
    method: "PUT",
    body: {},
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

/** The entry, once `ready` says so (the desk runs on its own, within seconds). */
export const entryOnce = (
  salon: Salon,
  id: string,
  ready: (entry: { status: string }) => boolean,
  ms = 10_000,
) =>
  until(async () => {
    const res = await salon.ws.api(`/waitlist/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return ready(res.body) ? res.body : undefined;
  }, ms);

export const offered = (salon: Salon, id: string) =>
  entryOnce(salon, id, (e) => e.status === "offered");

/**
 * One pass of the location's desk, run here and awaited (the desk object's own alarm may
 * run one at the same moment: passes are safe together, see waitlist-races).
 */
export async function runDesk(salon: Salon) {
  await runDeskNow(env, salon.ws.id, salon.location.uuid);
}

/**
 * Ages an offer past its expiry without a request touching it (D1 and the
 * calendar objects as they would be a second after it), then lets the desk run.
 */
export async function lapse(salon: Salon, entryId: string) {
  const past = Date.now() - 1_000;
  const row = await everyShard
    .prepare("select offer_reservation_id as r from waitlist_entries where id = ?")
    .bind(entryId)
    .first<{ r: string }>();
  const reservationId = row?.r ?? "";
  await everyShard.batch([
    everyShard
      .prepare("update reservations set expires_at = ? where id = ?")
      .bind(past, reservationId),
    everyShard
      .prepare("update calendar_entries set expires_at = ? where source_id = ?")
      .bind(past, reservationId),
    everyShard
      .prepare("update waitlist_entries set offer_expires_at = ? where id = ?")
      .bind(past, entryId),
  ]);
  for (const s of salon.staffers) {
    await runInDurableObject(calendarFor(env, salon.ws.id, s.uuid), (_i, state) => {
      state.storage.sql.exec(
        "UPDATE entries SET expires_ms = ? WHERE source_id = ?",
        past,
        reservationId,
      );
    });
  }
  await runDesk(salon);
}

/** The token of the offer link in a message's text. */
export const offerTokenIn = (text: string) => {
  const link = /\/widget\/offer\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!link?.[1]) throw new Error(`no offer link in: ${text}`);
  return link[1];
};

/** The waitlist-offer messages of an entry, oldest first (D1). */
export const offerMessages = async (entryId: string) =>
  (
    await everyShard
      .prepare(
        "select channel, body, status, locale from messages where waitlist_entry_id = ? order by created_at, channel",
      )
      .bind(entryId)
      .all<{ channel: string; body: string; status: string; locale: string }>()
  ).results;
