import { exports } from "cloudflare:workers";
import { expect } from "vitest";
import { BASE, type Client } from "./http";
import { createPublishableKey } from "./keys";
import { customer, type Salon } from "./salon";
import { deliverEvents, sessionOf } from "./payments";
import { payCheckout, stripeLedger, stripeRequests } from "./stripe";
import { everyShard } from "./every-shard";

/** A service of the salon's with a payment policy, bookable by every staffer (answers its uuid). */
export async function paidService(
  salon: Salon,
  policy: Record<string, unknown>,
  price = 8000,
  name = "Balayage",
): Promise<string> {
  const created = await salon.ws.api("/services", {
    method: "POST",
    body: {
      name,
      duration: 60,
      price,
      payment_policy: policy,
      location_uuids: [salon.location.uuid],
      staffer_uuids: salon.staffers.map((s) => s.uuid),
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.uuid as string;
}

/** A new widget visitor: a fresh publishable key (the visitor is its key and the client address). */
export const widget = async (salon: Salon): Promise<Client> =>
  (await createPublishableKey(salon.ws)).api;

/** Fresh Mondays from a base date, so no two reservations of a file meet on a calendar. */
export function days(base: string) {
  let n = 0;
  return () => {
    n += 1;
    return new Date(Date.parse(`${base}T00:00:00Z`) + n * 7 * 86_400_000)
      .toISOString()
      .slice(0, 10);
  };
}

export interface Held {
  uuid: string;
  payment: {
    mode: string;
    amount_due_now: number;
    currency: string;
    late_cancel: { window_minutes: number; fee: number } | null;
    no_show_fee: number | null;
  } | null;
}

/** Reserves one item per `[time, service]` on `date` (the first staffer, so times are certain). */
export async function reserve(
  api: Client,
  salon: Salon,
  date: string,
  items: [string, string][],
): Promise<Held> {
  const res = await api("/reservations", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      items: items.map(([time, service]) => ({
        datetime_start: `${date}T${time}:00Z`,
        services: [{ service_uuid: service, staffer_uuid: salon.staffers[0]?.uuid }],
      })),
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as Held;
}

export const checkoutBody = (extra: Record<string, unknown> = {}) => ({
  ...customer(),
  success_url: "https://salon.example/done?session={CHECKOUT_SESSION_ID}",
  cancel_url: "https://salon.example/back",
  ...extra,
});

export const startCheckout = (
  api: Client,
  reservation: string,
  extra: Record<string, unknown> = {},
) => api(`/reservations/${reservation}/checkout`, { method: "POST", body: checkoutBody(extra) });

export interface LedgerRow {
  booking_id: string;
  kind: string;
  amount: number;
  status: string;
  idempotency_key: string;
}

/** Our ledger (every row of the workspace), oldest first. */
export async function ourLedger(workspaceId: string): Promise<LedgerRow[]> {
  const rows = await everyShard
    .prepare(
      "select booking_id, kind, amount, status, idempotency_key from payments where workspace_id = ? order by created_at, rowid",
    )
    .bind(workspaceId)
    .all<LedgerRow>();
  return rows.results;
}

/** The reservation's checkout row as stored (status, attempt, session, booking). */
export async function checkoutRow(reservationId: string) {
  return everyShard
    .prepare(
      "select status, attempt, session_id, checkout_url, booking_id, failure from payment_checkouts where reservation_id = ?",
    )
    .bind(reservationId)
    .first<{
      status: string;
      attempt: number;
      session_id: string | null;
      checkout_url: string | null;
      booking_id: string | null;
      failure: string | null;
    }>();
}

/** Bookings that used a reservation (through its checkout or otherwise), by its held time. */
export async function bookingsOfWorkspace(workspaceId: string): Promise<number> {
  const row = await everyShard
    .prepare("select count(*) as n from bookings where workspace_id = ?")
    .bind(workspaceId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/**
 * The money as the provider holds it equals the money as our ledger holds it:
 * what the provider kept (charged less refunded) is what our succeeded rows say.
 */
export async function expectLedgersAgree(workspaceId: string) {
  const [provider, ours] = await Promise.all([stripeLedger(workspaceId), ourLedger(workspaceId)]);
  const succeeded = ours.filter((r) => r.status === "succeeded");
  const charged = succeeded.filter((r) => r.kind !== "refund").reduce((s, r) => s + r.amount, 0);
  const refunded = succeeded.filter((r) => r.kind === "refund").reduce((s, r) => s + r.amount, 0);
  // A paid checkout that made no booking was refunded in full: no row of ours, net nothing.
  expect(provider.charged - provider.refunded).toBe(charged - refunded);
  return { provider, ours };
}

/** Every request the provider got about the workspace: none broke its API, each POST had a key. */
export async function expectCleanRequests(workspaceId: string) {
  const requests = await stripeRequests(workspaceId);
  expect(requests.filter((r) => r.violation !== null)).toEqual([]);
  expect(requests.filter((r) => r.method === "POST" && !r.idempotency_key)).toEqual([]);
  return requests;
}

/** The customer pays on the hosted page, then the provider's waiting events reach the webhook. */
export async function payAndDeliver(workspaceId: string, checkoutUrl: string, card?: string) {
  const paid = await payCheckout(sessionOf(checkoutUrl), card);
  expect(paid.status).toBe("complete");
  return deliverEvents(workspaceId);
}

/** The booking a reservation's checkout became (GET /reservations/{uuid}), or null. */
export async function bookedFrom(api: Client, reservation: string) {
  const res = await api(`/reservations/${reservation}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const { status, booking_uuid } = res.body.checkout as {
    status: string;
    booking_uuid: string | null;
  };
  return { status, booking_uuid };
}

/** The webhook secret the test Worker is configured with (vitest.config.ts). */
const WEBHOOK_SECRET = "whsec_test_local";

/**
 * An event signed as the provider signs (`t=<unix>,v1=<HMAC-SHA256("<t>.<body>")>`), for
 * events the test server never sends by itself: one out of order, of an unknown type, or
 * naming a session nobody made.
 */
export async function signedEvent(
  type: string,
  object: Record<string, unknown>,
  signedAt = Math.floor(Date.now() / 1000),
) {
  const payload = JSON.stringify({
    id: `evt_test_${crypto.randomUUID().replaceAll("-", "")}`,
    object: "event",
    api_version: "2020-08-27",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  });
  const t = signedAt;
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(WEBHOOK_SECRET),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${t}.${payload}`));
  const hex = [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { payload, signature: `t=${t},v1=${hex}` };
}

/** Posts one delivery to the webhook; answers its status, body and headers (Server-Timing). */
export async function postDelivery(delivery: { payload: string; signature: string | null }) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (delivery.signature !== null) headers["stripe-signature"] = delivery.signature;
  const response = await exports.default.fetch(
    new Request(`${BASE}/api/payments/stripe/webhook`, {
      method: "POST",
      headers,
      body: delivery.payload,
    }),
  );
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : null) as Record<string, unknown> | null,
  };
}

/** Server-Timing's D1 round trips, statements and calendar calls of one answer. */
export function timingsOf(headers: Headers) {
  const header = headers.get("server-timing") ?? "";
  const number = (re: RegExp) => {
    const m = re.exec(header);
    return m?.[1] === undefined ? 0 : Number(m[1]);
  };
  return {
    d1RoundTrips: number(/d1;dur=[\d.]+;desc="(\d+) round trips"/),
    d1Statements: number(/d1-statements;desc="(\d+)"/),
    calendarCalls: number(/calendar;dur=[\d.]+;desc="(\d+) calls"/),
    header,
  };
}

/** Rows of a table of the whole database (what a refused event must not have written). */
export async function countRows(table: "payment_provider_events" | "payments" | "bookings") {
  const row = await everyShard.prepare(`select count(*) as n from ${table}`).first<{ n: number }>();
  return row?.n ?? 0;
}

/** The value, or the test fails here (what a non-null assertion would only assume). */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`expected ${what}`);
  return value;
}

export interface RecordedLine {
  quantity?: string;
  price_data?: { currency?: string; unit_amount?: string; product_data?: { name?: string } };
}

/** The line items of a recorded session request, as the provider decoded its form body. */
export const linesOf = (params: Record<string, unknown>): RecordedLine[] =>
  Array.isArray(params.line_items) ? (params.line_items as RecordedLine[]) : [];
