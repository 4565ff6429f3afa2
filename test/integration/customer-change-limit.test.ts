import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { OpenEnv } from "../../src/http/env";
import worker from "../../src/index";
import { fakeLimiter } from "../helpers/limiter";
import { BASE, PUBLIC, type Received } from "../helpers/http";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { at, createSalon, customer, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * Every change a customer makes to a booking (publishable key or manage link)
 * counts against that booking, in the change runner: a script holding the
 * widget's key cannot move a booking back and forth to flood its customer
 * with booking-rescheduled messages. Staff changes are not counted.
 */

let salon: Salon;
let pk: PublishableKey;
beforeAll(async () => {
  salon = await createSalon();
  pk = await createPublishableKey(salon.ws);
});

let week = 0;
/** A Monday of its own per call (from 2031-09-01), so tests never share calendar time. */
const nextMonday = () => {
  week += 1;
  return new Date(Date.UTC(2031, 8, 1) + week * 7 * 86_400_000).toISOString().slice(0, 10);
};

/** The Worker in process with the per-booking limiter replaced by a fake. */
function appWith(bindings: Partial<OpenEnv["Bindings"]>) {
  return async (
    key: string,
    method: string,
    path: string,
    body?: unknown,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
  ): Promise<Received<any>> => {
    const ctx = createExecutionContext();
    const request = new Request(`${BASE}${PUBLIC}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        workspace: salon.ws.id,
        "content-type": "application/json",
        "cf-connecting-ip": "192.0.2.200",
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const res = await worker.fetch(request, { ...env, ...bindings }, ctx);
    const parsed: unknown = await res.json();
    await waitOnExecutionContext(ctx);
    return { status: res.status, headers: res.headers, body: parsed };
  };
}

async function book(date: string) {
  const res = await salon.ws.api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      staffer_uuid: salon.staffers[0]?.uuid,
      reserved_on: at("09:00", date),
      ...customer(),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
}

const messageRows = async (bookingId: string) =>
  (
    await everyShard
      .prepare("select kind from messages where booking_id = ? order by created_at")
      .bind(bookingId)
      .all<{ kind: string }>()
  ).results.map((r) => r.kind);

const LIMITED = {
  message: "Too many requests; slow down and retry later.",
  code: "rate_limited",
};

describe("a customer's changes are limited per booking", () => {
  it("a publishable-key reschedule loop is 429 past the bound, with no message written for it", async () => {
    const { limiter, keys } = fakeLimiter(3);
    const call = appWith({ MANAGE_WRITE_RATE_LIMIT: limiter });
    const date = nextMonday();
    const id = await book(date);
    const times = ["10:00", "11:00", "12:00", "13:00", "14:00"].map((t) => at(t, date));
    const answers: Received[] = [];
    for (const reserved_on of times)
      answers.push(await call(pk.key, "PUT", `/bookings/${id}/reschedule`, { reserved_on }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 429, 429]);
    expect(answers[3]?.body).toEqual(LIMITED);
    expect(answers[3]?.headers.get("retry-after")).toBe("60");
    expect(keys).toEqual(times.map(() => `booking:${id}`));
    // Three moves told the customer three times; the refused ones wrote nothing.
    const kinds = await messageRows(id);
    expect(kinds.filter((k) => k === "booking-rescheduled")).toHaveLength(3);
    const seen = await salon.ws.api(`/bookings/${id}`);
    expect(seen.body.start_time).toBe(at("12:00", date));
    // A cancel through the key is the customer's change too: the same bucket.
    const cancel = await call(pk.key, "PUT", `/bookings/${id}/status/cancel`, {});
    expect(cancel.status).toBe(429);
    expect((await salon.ws.api(`/bookings/${id}`)).body.status).not.toBe("canceled");
    expect(await messageRows(id)).toEqual(kinds);
  });

  it("another booking has a bucket of its own", async () => {
    const { limiter } = fakeLimiter(1);
    const call = appWith({ MANAGE_WRITE_RATE_LIMIT: limiter });
    const date = nextMonday();
    const [one, two] = [await book(date), await book(nextMonday())];
    const move = (id: string, hhmm: string, day: string) =>
      call(pk.key, "PUT", `/bookings/${id}/reschedule`, { reserved_on: at(hhmm, day) });
    expect((await move(one, "10:00", date)).status).toBe(200);
    expect((await move(one, "11:00", date)).status).toBe(429);
    expect((await call(pk.key, "PUT", `/bookings/${two}/status/cancel`, {})).status).toBe(200);
  });

  it("staff (a secret key) are never limited per booking", async () => {
    const { limiter, keys } = fakeLimiter(0);
    const call = appWith({ MANAGE_WRITE_RATE_LIMIT: limiter });
    const date = nextMonday();
    const id = await book(date);
    for (const hhmm of ["10:00", "11:00", "12:00", "13:00"]) {
      const moved = await call(salon.ws.apiKey, "PUT", `/bookings/${id}/reschedule`, {
        reserved_on: at(hhmm, date),
        is_send_notification_on_reschedule: true,
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }
    const canceled = await call(salon.ws.apiKey, "PUT", `/bookings/${id}/status/cancel`, {});
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(keys).toEqual([]);
  });
});
