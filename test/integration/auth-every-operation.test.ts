import { beforeAll, describe, expect, it } from "vitest";
import { errorBodyProblems } from "../fuzz/lib/oracles";
import { type Api, type Doc, type Operation, operationsOf } from "../fuzz/lib/schema";
import { sendDirect } from "../helpers/direct";
import { createWorkspace, type TestWorkspace } from "../helpers/factory";
import { ADMIN, ADMIN_TOKEN, PUBLIC } from "../helpers/http";
import { ics, serve } from "../helpers/ics-server";
import { customer } from "../helpers/salon";
import { createShop, sellVouchers, type Shop } from "../helpers/shop";
import { createPackageTemplate, issueOne } from "../helpers/packages";

/**
 * Table-driven over both served OpenAPI documents: every operation, except the
 * ones the contract leaves open (the documents themselves, a booking's iCal
 * link and its manage link, a staffer's calendar feed, whose tokens are their credentials), refuses a caller without credentials
 * and a caller with another workspace's credentials with 401 and the one error
 * body. Path parameters are random uuids (1 for integer ids), so nothing here
 * depends on a record existing. Sent through `sendDirect` (hundreds of calls).
 */

const BASES: Record<Api, string> = { public: PUBLIC, admin: ADMIN };

/** Operations callable without credentials, written down here independently of src/. */
const OPEN = new Set([
  "GET public:/bookings/{booking_uuid}/ical",
  // A staffer's calendar feed: its URL's token is the credential (test/integration/calendar-feed.test.ts).
  "GET public:/feeds/{feed_file}",
  // A booking's manage link: its signed token is the credential (test/integration/manage.test.ts).
  "GET public:/manage/{token}",
  "GET public:/manage/{token}/time-slots",
  "POST public:/manage/{token}/cancel",
  "POST public:/manage/{token}/reschedule",
  // A waitlist offer's link: its token is the credential (test/integration/waitlist.test.ts).
  "GET public:/waitlist-offers/{token}",
  "POST public:/waitlist-offers/{token}/book",
]);

let docs: Record<Api, Doc>;
let ops: Operation[];
let a: TestWorkspace;
let b: TestWorkspace;

beforeAll(async () => {
  const fetchDoc = async (api: Api) => {
    const res = await sendDirect(`${BASES[api]}/openapi.json`);
    expect(res.status).toBe(200);
    return res.body as Doc;
  };
  docs = { public: await fetchDoc("public"), admin: await fetchDoc("admin") };
  ops = [...operationsOf("public", docs.public), ...operationsOf("admin", docs.admin)];
  a = await createWorkspace();
  b = await createWorkspace();
});

function urlOf(op: Operation): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = op.pathParams.find((p) => p.name === name);
    const type = param?.schema?.type;
    return type === "integer" || type === "number" ? "1" : crypto.randomUUID();
  });
  return `${BASES[op.api]}${path}`;
}

async function call(op: Operation, headers: Record<string, string>) {
  return sendDirect(urlOf(op), {
    method: op.method,
    headers,
    ...(op.body ? { body: {} } : {}),
  });
}

/** Sends every guarded operation with these headers; lists each that is not a proper 401. */
async function refusals(api: Api, headers: Record<string, string>) {
  const wrong: string[] = [];
  const guarded = ops.filter((op) => op.api === api && !OPEN.has(op.key));
  for (const op of guarded) {
    const res = await call(op, headers);
    const problems = res.status === 401 ? errorBodyProblems(401, res.body, null) : [];
    if (res.status !== 401 || problems.length || res.body?.code !== "unauthenticated")
      wrong.push(`${op.key} → ${res.status} ${JSON.stringify(res.body)} ${problems.join("; ")}`);
  }
  return { count: guarded.length, wrong };
}

describe("every operation of both OpenAPI documents needs credentials", () => {
  it("walks a sizeable API (the documents were read, not an empty table)", () => {
    const publicOps = ops.filter((op) => op.api === "public");
    const adminOps = ops.filter((op) => op.api === "admin");
    expect(publicOps.length).toBeGreaterThan(30);
    expect(adminOps.length).toBeGreaterThan(10);
    for (const key of OPEN) expect(ops.map((op) => op.key)).toContain(key);
    // Every method in the table, not only reads.
    expect(new Set(ops.map((op) => op.method))).toEqual(
      new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]),
    );
  });

  it("public: 401 with the error body without any credentials", async () => {
    const { count, wrong } = await refusals("public", {});
    expect(count).toBeGreaterThan(30);
    expect(wrong).toEqual([]);
  });

  it("public: 401 with the Workspace header but no key", async () => {
    const { wrong } = await refusals("public", { workspace: a.id });
    expect(wrong).toEqual([]);
  });

  it("public: 401 with another workspace's key", async () => {
    const { wrong } = await refusals("public", {
      authorization: `Bearer ${b.apiKey}`,
      workspace: a.id,
    });
    expect(wrong).toEqual([]);
  });

  it("management: 401 without the admin token", async () => {
    const { count, wrong } = await refusals("admin", {});
    expect(count).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  it("management: 401 with a workspace's API key or a wrong admin token", async () => {
    expect((await refusals("admin", { authorization: `Bearer ${a.apiKey}` })).wrong).toEqual([]);
    expect((await refusals("admin", { authorization: `Bearer ${ADMIN_TOKEN}x` })).wrong).toEqual(
      [],
    );
  });

  it("the open operations answer without credentials (and the guarded ones with them)", async () => {
    // The documents themselves.
    expect((await sendDirect(`${PUBLIC}/openapi.json`)).status).toBe(200);
    expect((await sendDirect(`${ADMIN}/openapi.json`)).status).toBe(200);
    // The iCal link: an unknown booking is a 404 (the token is the credential), never a 401.
    const ical = await sendDirect(`${PUBLIC}/bookings/${crypto.randomUUID()}/ical?token=x`);
    expect(ical.status).toBe(404);
    // A staffer's calendar feed: an unknown token (of a workspace nobody has) is a 404, never a 401.
    const feed = await sendDirect(`${PUBLIC}/feeds/feed_${"A".repeat(64)}.ics`);
    expect(feed.status).toBe(404);
    // The manage link: a made-up token is refused as a token (invalid_token), not as a missing key.
    const manage = await sendDirect(`${PUBLIC}/manage/${"A".repeat(71)}`);
    expect(manage.status).toBe(401);
    expect(manage.body.code).toBe("invalid_token");
    // A waitlist offer's link: a made-up token is refused as a token too.
    const offer = await sendDirect(`${PUBLIC}/waitlist-offers/${"A".repeat(64)}`);
    expect(offer.status).toBe(401);
    expect(offer.body.code).toBe("invalid_token");
    // With the right credentials the same calls get past authentication: never a 401.
    const authed: string[] = [];
    for (const op of ops.filter((o) => !OPEN.has(o.key))) {
      const headers: Record<string, string> =
        op.api === "public"
          ? { authorization: `Bearer ${a.apiKey}`, workspace: a.id }
          : { authorization: `Bearer ${ADMIN_TOKEN}` };
      if (op.method !== "GET") continue; // reads only: no writes of random data here
      const res = await call(op, headers);
      if (res.status === 401) authed.push(op.key);
    }
    expect(authed).toEqual([]);
  });
});

describe("every public operation on another workspace's record is a 404", () => {
  let mine: Shop;
  let theirs: Shop;
  /** Path parameter → a record of the other workspace. */
  let foreign: Record<string, string>;
  let theirBooking: unknown;

  beforeAll(async () => {
    [mine, theirs] = [await createShop(), await createShop()];
    const booking = await theirs.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: theirs.location.uuid,
        service_uuid: theirs.cut.uuid,
        reserved_on: "2030-03-04T09:00:00Z",
        ...customer(),
      },
    });
    expect(booking.status, JSON.stringify(booking.body)).toBe(201);
    theirBooking = booking.body;
    const order = await theirs.ws.api("/orders", {
      method: "POST",
      body: {
        location_uuid: theirs.location.uuid,
        staffer_uuid: theirs.seller.uuid,
        goods: [{ good_uuid: theirs.shampoo.uuid, price: 1250, quantity: 1 }],
      },
    });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const series = await theirs.ws.api("/bookings/series", {
      method: "POST",
      body: {
        location_uuid: theirs.location.uuid,
        service_uuid: theirs.cut.uuid,
        reserved_on: "2030-03-05T09:00:00Z",
        recurrence: { rule: "FREQ=WEEKLY;COUNT=2" },
        ...customer(),
      },
    });
    expect(series.status, JSON.stringify(series.body)).toBe(201);
    const webhook = await theirs.ws.api("/webhooks", {
      method: "POST",
      body: { url: "https://hooks.example.com/theirs", events: ["booking-created"] },
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(201);
    const { codes } = await sellVouchers(theirs, 1);
    const reservation = await theirs.ws.api("/reservations", {
      method: "POST",
      body: {
        location_uuid: theirs.location.uuid,
        items: [
          { datetime_start: "2030-03-04T12:00:00Z", services: [{ service_uuid: theirs.cut.uuid }] },
        ],
      },
    });
    expect(reservation.status, JSON.stringify(reservation.body)).toBe(201);
    const external = await theirs.ws.api(
      `/staffers/${theirs.staffers[0]?.uuid}/external-calendars`,
      {
        method: "POST",
        body: { url: await serve("/auth-every-operation.ics", { body: ics([]) }) },
      },
    );
    expect(external.status, JSON.stringify(external.body)).toBe(201);
    const entry = await theirs.ws.api("/waitlist", {
      method: "POST",
      body: {
        location_uuid: theirs.location.uuid,
        services: [{ service_uuid: theirs.cut.uuid }],
        customer_phone: "+49 151 99999999",
        customer_first_name: "Theirs",
        from: "2030-03-09",
        to: "2030-03-09",
      },
    });
    expect(entry.status, JSON.stringify(entry.body)).toBe(201);
    // The booking's confirmation to its customer (e-mail is on by default).
    const messages = await theirs.ws.api(`/messages?booking_uuid=${booking.body.uuid}`);
    expect(messages.body.data.length).toBeGreaterThan(0);
    const template = await createPackageTemplate(theirs.ws, {
      credits: [{ service_uuids: [theirs.cut.uuid], count: 1 }],
      renews: { every: "month" },
    });
    const customerPackage = await issueOne(theirs.ws, {
      packageUuid: template.uuid,
      customerUuid: booking.body.customer_uuid,
      card: { providerCustomer: "cus_theirs", paymentMethod: "pm_theirs" },
    });
    foreign = {
      package_uuid: template.uuid,
      customer_package_uuid: customerPackage,
      service_uuid: theirs.cut.uuid,
      location_uuid: theirs.location.uuid,
      staffer_uuid: theirs.staffers[0]?.uuid ?? "",
      booking_uuid: booking.body.uuid,
      customer_uuid: booking.body.customer_uuid,
      order_uuid: order.body.uuid,
      webhook_id: String(webhook.body.id),
      code: codes[0] ?? "",
      reservation_uuid: reservation.body.uuid,
      message_uuid: messages.body.data[0].uuid,
      series_uuid: series.body.series.uuid,
      external_calendar_uuid: external.body.uuid,
      entry_uuid: entry.body.uuid,
    };
  });

  /** Query strings and bodies valid for my workspace, so only the foreign record can be refused. */
  const requests = (): Record<string, { query?: string; body?: unknown }> => ({
    "GET public:/locations/{location_uuid}/time-slots": {
      query: `service_uuid=${mine.cut.uuid}&range_start=2030-03-04&range_end=2030-03-04`,
    },
    "POST public:/locations/{location_uuid}/time-slots/cart/next": {
      body: { services: [{ service_uuid: mine.cut.uuid }] },
    },
    "POST public:/locations/{location_uuid}/time-slots/cart": {
      body: {
        services: [{ service_uuid: mine.cut.uuid }],
        range_start: "2030-03-04",
        range_end: "2030-03-05",
      },
    },
    "POST public:/staffers/{staffer_uuid}/blocked-spots": {
      body: {
        location_uuid: mine.location.uuid,
        starts_at: "2030-03-04T12:00:00Z",
        ends_at: "2030-03-04T13:00:00Z",
      },
    },
    "POST public:/staffers/{staffer_uuid}/external-calendars": {
      body: { url: "https://calendar.example.com/personal.ics" },
    },
    "PUT public:/bookings/{booking_uuid}/status/complete": {
      body: { account_uuid: mine.cash.uuid },
    },
    "PUT public:/bookings/{booking_uuid}/status/cancel": { body: { cancel_reason: "didnt_come" } },
    "PUT public:/bookings/{booking_uuid}/reschedule": {
      body: { reserved_on: "2030-03-04T11:00:00Z" },
    },
    "PUT public:/bookings/{booking_uuid}/staffer": {
      body: { staffer_uuid: mine.staffers[0]?.uuid },
    },
    "PUT public:/bookings/{booking_uuid}/services": { body: { service_uuid: mine.colour.uuid } },
    "PATCH public:/services/{service_uuid}": { body: { capacity: 2 } },
    "PATCH public:/packages/{package_uuid}": { body: { live: false } },
    "POST public:/bookings/{booking_uuid}/public_notes": { body: { value: "Hello" } },
    "POST public:/orders/{order_uuid}/pay": { body: { account_uuid: mine.cash.uuid } },
    "POST public:/orders/{order_uuid}/refund": { body: {} },
    "POST public:/orders/{order_uuid}/checkout": {
      body: { success_url: "https://salon.example/paid", cancel_url: "https://salon.example/back" },
    },
    "PATCH public:/webhooks/{webhook_id}": { body: { url: "https://hooks.example.com/mine" } },
    "PATCH public:/customers/{customer_uuid}": { body: { notifications: { email: false } } },
    "PUT public:/series/{series_uuid}/cancel": { body: {} },
    "POST public:/reservations/{reservation_uuid}/checkout": {
      body: {
        customer_phone: "+49 151 11111111",
        customer_first_name: "Mine",
        success_url: "https://salon.example/paid",
        cancel_url: "https://salon.example/back",
      },
    },
    "PUT public:/series/{series_uuid}/reschedule": {
      body: { from_booking_uuid: foreign.booking_uuid, reserved_on: "2030-03-04T11:00:00Z" },
    },
  });

  it("with my own key, every operation with a path parameter refuses their record", async () => {
    const statuses = await sendDirect(`${PUBLIC}/booking-statuses`, {
      headers: { authorization: `Bearer ${mine.ws.apiKey}`, workspace: mine.ws.id },
    });
    const confirmed = statuses.body.data.find((x: { type: string }) => x.type === "confirmed");
    const table = {
      ...requests(),
      "PUT public:/bookings/{booking_uuid}/status": { body: { status_uuid: confirmed.uuid } },
    } as Record<string, { query?: string; body?: unknown }>;
    const targets = ops.filter(
      (op) => op.api === "public" && op.pathParams.length > 0 && !OPEN.has(op.key),
    );
    expect(targets.length).toBeGreaterThan(20);
    const wrong: string[] = [];
    for (const op of targets) {
      const request = table[op.key];
      // A new operation with a body needs a valid body here, or it would only prove validation.
      if (op.body && request?.body === undefined) {
        wrong.push(`${op.key}: no valid body in this table`);
        continue;
      }
      const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const value = foreign[name];
        if (value === undefined) throw new Error(`no foreign record for {${name}} of ${op.key}`);
        return value;
      });
      const res = await sendDirect(`${PUBLIC}${path}${request?.query ? `?${request.query}` : ""}`, {
        method: op.method,
        headers: { authorization: `Bearer ${mine.ws.apiKey}`, workspace: mine.ws.id },
        ...(request?.body !== undefined ? { body: request.body } : {}),
      });
      if (res.status !== 404 || res.body?.code !== "not_found")
        wrong.push(`${op.key} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(wrong).toEqual([]);
    // Their booking is as it was.
    const after = await theirs.ws.api(`/bookings/${foreign.booking_uuid}`);
    expect(after.body).toEqual(theirBooking);
  });
});
