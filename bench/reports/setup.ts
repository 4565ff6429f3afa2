import { adminPost, BENCH_ADMIN_TOKEN } from "../open-salon";
import type { Template } from "./seed";
import { sqlBatch } from "./sql";

/** Minutes of each service; the fifth and tenth have a 15-minute buffer. */
const DURATIONS = [30, 45, 60, 75, 30, 45, 60, 75, 30, 45];
const BUFFERED = new Set([4, 9]);
/** Staffers made at once (the management API allows 120 per 10 s). */
const IN_FLIGHT = 10;
export const ZONE = "Europe/Berlin";

export interface Salon {
  workspaceId: string;
  shard: string;
  apiKey: string;
  location: string;
  staffers: string[];
  /** [id, price, minutes, buffer, name] per service, as the seed reads them. */
  services: [string, number, number, number, string][];
  template: Template;
}

async function call(url: string, init: RequestInit): Promise<unknown> {
  for (let tries = 0; ; tries++) {
    const res = await fetch(url, init).catch(() => null);
    if (res && res.status !== 429 && res.status !== 503) {
      const text = await res.text();
      if (!res.ok) throw new Error(`${init.method ?? "GET"} ${url} → ${res.status}: ${text}`);
      return JSON.parse(text);
    }
    if (tries >= 20) throw new Error(`${init.method ?? "GET"} ${url}: ${res?.status}`);
    await new Promise((r) => setTimeout(r, Number(res?.headers.get("retry-after") ?? 1) * 1000));
  }
}

/**
 * A location in Europe/Berlin (its days are not UTC's) with `count` staffers working
 * Monday–Saturday 09:00–18:00 and 10 services, through the management and public APIs,
 * and one real booking (next week, outside the seeded year): the template every seeded
 * row copies.
 */
export async function createSalon(base: string, count: number): Promise<Salon> {
  const ws = await adminPost(base, "/workspaces", {
    name: "Reports",
    country: "DE",
    currency: "EUR",
    timezone: ZONE,
  });
  const location = await adminPost(base, `/workspaces/${ws.uuid}/locations`, {
    name: "Flagship",
    timezone: ZONE,
    slot_step: 15,
  });
  const staffers: string[] = [];
  for (let i = 0; i < count; i += IN_FLIGHT) {
    const made = await Promise.all(
      Array.from({ length: Math.min(IN_FLIGHT, count - i) }, (_, k) =>
        call(`${base}/api/admin/v1/workspaces/${ws.uuid}/staffers`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${BENCH_ADMIN_TOKEN}`,
            "content-type": "application/json",
          },
          body: JSON.stringify({
            first_name: `S${String(i + k).padStart(3, "0")}`,
            location_uuids: [location.uuid],
            schedule: [1, 2, 3, 4, 5, 6].map((weekday) => ({
              location_uuid: location.uuid,
              weekday,
              start: "09:00",
              end: "18:00",
            })),
          }),
        }),
      ),
    );
    staffers.push(...made.map((s) => (s as { uuid: string }).uuid));
  }
  const api = (path: string, body: unknown) =>
    call(`${base}/api/public/v2${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${ws.api_key}`,
        workspace: ws.uuid,
        "content-type": "application/json",
      },
      body: JSON.stringify(body),
    }) as Promise<{ uuid: string }>;
  const services: Salon["services"] = [];
  for (const [i, minutes] of DURATIONS.entries()) {
    const price = 2000 + 500 * i;
    const s = await api("/services", {
      name: `Service ${i}`,
      duration: minutes,
      price,
      ...(BUFFERED.has(i) ? { is_pause: true, pause: 15 } : {}),
    });
    services.push([s.uuid, price, minutes, BUFFERED.has(i) ? 15 : 0, `Service ${i}`]);
  }
  // Next Tuesday 10:00 local: a working day, whatever today is.
  const day = new Date(Date.now() + 7 * 86_400_000);
  day.setUTCDate(day.getUTCDate() + ((9 - day.getUTCDay()) % 7));
  const booking = await api("/bookings", {
    location_uuid: location.uuid,
    service_uuid: services[0]?.[0],
    staffer_uuid: staffers[0],
    reserved_on: `${day.toISOString().slice(0, 10)}T08:00:00Z`,
    customer_phone: "+4915123456789",
    customer_first_name: "Template",
  });
  const tables = ["customers", "orders", "bookings", "booking_services"];
  const { results } = await sqlBatch(base, ws.shard, [
    { sql: "SELECT order_id, customer_id FROM bookings WHERE id = ?", params: [booking.uuid] },
    ...[...tables, "calendar_entries"].map((t) => ({ sql: `PRAGMA table_info(${t})` })),
  ]);
  const [row] = results[0] as { order_id: string; customer_id: string }[];
  if (!row) throw new Error("the template booking has no row");
  const columns = Object.fromEntries(
    [...tables, "calendar_entries"].map((t, i) => [
      t,
      (results[i + 1] ?? []).map((c) => String(c.name)),
    ]),
  );
  return {
    workspaceId: ws.uuid,
    shard: ws.shard,
    apiKey: ws.api_key,
    location: location.uuid,
    staffers,
    services,
    template: {
      bookingId: booking.uuid,
      orderId: row.order_id,
      customerId: row.customer_id,
      columns,
    },
  };
}
