import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, d1RoundTrips } from "../../helpers/http";
import { createWorkspace, createLocation } from "../../helpers/factory";
import { everyShard } from "../../helpers/every-shard";
import { at } from "../../helpers/salon";
import { paidService } from "../../helpers/checkout-flow";
import { expectProtoJson } from "../../helpers/proto-json";
import { basic, googleSalon, googleUser, RWG, sec, type RwgCredentials } from "../../helpers/rwg";

type GoogleSalon = Awaited<ReturnType<typeof googleSalon>>;

/** A Slot of the salon's haircut (45 min) at `iso`, as Google writes one. */
const slotAt = (salon: GoogleSalon, iso: string, extra: Record<string, unknown> = {}) => ({
  merchant_id: salon.location.uuid,
  service_id: salon.cut.uuid,
  start_sec: sec(iso),
  duration_sec: "2700",
  ...extra,
});

const createRequest = (
  salon: GoogleSalon,
  iso: string,
  token = crypto.randomUUID(),
  extra: Record<string, unknown> = {},
) => ({
  slot: slotAt(salon, iso),
  user_information: googleUser(),
  idempotency_token: token,
  ...extra,
});

/** CreateBooking's answer as bytes (the helpers parse it; a replay is compared as sent). */
async function rawCreate(creds: RwgCredentials, body: unknown) {
  const res = await exports.default.fetch(
    new Request(`${BASE}${RWG}/CreateBooking`, {
      method: "POST",
      headers: { authorization: basic(creds), "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );
  return { status: res.status, headers: res.headers, text: await res.text() };
}

const bookingRows = async (workspaceId: string) =>
  (
    await everyShard
      .prepare(
        "select id, source, customer_id, start_at, is_canceled from bookings where workspace_id = ? order by start_at",
      )
      .bind(workspaceId)
      .all<{
        id: string;
        source: string;
        customer_id: string;
        start_at: number;
        is_canceled: number;
      }>()
  ).results;

const googleRows = async (workspaceId: string) =>
  (
    await everyShard
      .prepare(
        "select booking_id, idempotency_token, user_id, response, google_version from rwg_bookings where workspace_id = ?",
      )
      .bind(workspaceId)
      .all<{
        booking_id: string;
        idempotency_token: string;
        user_id: string;
        response: string;
        google_version: number;
      }>()
  ).results;

describe("Reserve with Google: CreateBooking", () => {
  it("books the slot as a customer's booking, with its messages and event, and answers it CONFIRMED", async () => {
    const salon = await googleSalon();
    const res = await rawCreate(salon.creds, createRequest(salon, at("08:00"), "token-happy"));
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    const body = JSON.parse(res.text);
    expectProtoJson("CreateBookingResponse", body);
    expect(body).toEqual({
      booking: {
        booking_id: expect.any(String),
        slot: {
          merchant_id: salon.location.uuid,
          service_id: salon.cut.uuid,
          start_sec: sec(at("08:00")),
          duration_sec: "2700",
        },
        user_information: googleUser(),
        status: "CONFIRMED",
        payment_information: { prepayment_status: "PREPAYMENT_NOT_PROVIDED" },
      },
    });
    console.log(`CreateBooking D1 round trips: ${d1RoundTrips(res.headers)}`);
    const id = body.booking.booking_id as string;

    const got = await salon.ws.api(`/bookings/${id}`);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body).toMatchObject({
      uuid: id,
      location_uuid: salon.location.uuid,
      start_time: expect.stringMatching(/^2030-03-04T0?9:00|2030-03-04T08:00/),
      is_canceled: false,
      ordered_services: [{ service_uuid: salon.cut.uuid }],
    });
    const customer = await salon.ws.api(`/customers/${got.body.customer_uuid}`);
    expect(customer.status).toBe(200);
    expect(customer.body).toMatchObject({
      first_name: "Anna",
      last_name: "Berg",
      phone: "+4915123456789",
    });
    const [row] = await bookingRows(salon.ws.id);
    expect(row).toMatchObject({ id, source: "reserve_with_google" });
    const [google] = await googleRows(salon.ws.id);
    expect(google).toMatchObject({
      booking_id: id,
      idempotency_token: "token-happy",
      user_id: googleUser().user_id,
      response: res.text,
      google_version: 0,
    });

    const events = await everyShard
      .prepare("select type from events where workspace_id = ? and payload like ?")
      .bind(salon.ws.id, `%${id}%`)
      .all<{ type: string }>();
    expect(events.results.map((e) => e.type)).toContain("booking-created");
    const messages = await everyShard
      .prepare("select kind from messages where workspace_id = ? and booking_id = ?")
      .bind(salon.ws.id, id)
      .all<{ kind: string }>();
    expect(messages.results.map((m) => m.kind)).toContain("booking-confirmation");
  });

  it("CreateBooking Errors: 0 out of 10 (ten slots, ten tokens, all CONFIRMED, ten bookings)", async () => {
    const salon = await googleSalon();
    const starts = ["08:00", "09:00", "10:00", "11:00", "12:00"].flatMap((t) => [
      at(t),
      at(t, "2030-03-05"),
    ]);
    const answers = await Promise.all(
      starts.map((s, i) => salon.google("CreateBooking", createRequest(salon, s, `ten-${i}`))),
    );
    const errors = answers.filter(
      (a) => a.status !== 200 || a.body.booking?.status !== "CONFIRMED",
    );
    expect(`CreateBooking Errors: ${errors.length} out of ${answers.length}`).toBe(
      "CreateBooking Errors: 0 out of 10",
    );
    const ids = new Set(answers.map((a) => a.body.booking.booking_id));
    expect(ids.size).toBe(10);
    expect((await bookingRows(salon.ws.id)).length).toBe(10);
  });

  it("replays a known token byte for byte, even with another body, and books nothing more", async () => {
    const salon = await googleSalon();
    const req = createRequest(salon, at("08:00"), "token-replay");
    const first = await rawCreate(salon.creds, req);
    expect(first.status, first.text).toBe(200);
    const again = await rawCreate(salon.creds, req);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get("content-type")).toContain("application/json");
    console.log(`CreateBooking replay D1 round trips: ${d1RoundTrips(again.headers)}`);
    const other = await rawCreate(salon.creds, createRequest(salon, at("10:00"), "token-replay"));
    expect(other.text).toBe(first.text);
    expect((await bookingRows(salon.ws.id)).length).toBe(1);
    const messages = await everyShard
      .prepare("select count(*) as n from messages where workspace_id = ? and kind = ?")
      .bind(salon.ws.id, "booking-confirmation")
      .first<{ n: number }>();
    expect(messages?.n).toBe(1);
  });

  it("answers SLOT_ALREADY_BOOKED_BY_USER to a new token of the same user at the same slot, OVERLAPPING_RESERVATION to the same phone", async () => {
    const salon = await googleSalon();
    const first = await salon.google("CreateBooking", createRequest(salon, at("08:00")));
    expect(first.body.booking.status).toBe("CONFIRMED");
    const sameUser = await salon.google("CreateBooking", createRequest(salon, at("08:00")));
    expect(sameUser.status).toBe(200);
    expectProtoJson("CreateBookingResponse", sameUser.body);
    expect(sameUser.body).toEqual({
      booking_failure: { cause: "SLOT_ALREADY_BOOKED_BY_USER", description: expect.any(String) },
    });
    const samePhone = await salon.google(
      "CreateBooking",
      createRequest(salon, at("08:00"), crypto.randomUUID(), {
        user_information: googleUser("2222", "+49 151 23456789"),
      }),
    );
    expect(samePhone.body.booking_failure?.cause).toBe("OVERLAPPING_RESERVATION");
    // Another user at the same time is a booking of its own (a second staffer is free).
    const other = await salon.google(
      "CreateBooking",
      createRequest(salon, at("08:00"), crypto.randomUUID(), {
        user_information: googleUser("3333", "+49 151 99999999"),
      }),
    );
    expect(other.body.booking?.status).toBe("CONFIRMED");
    expect((await bookingRows(salon.ws.id)).length).toBe(2);
  });

  it("answers SLOT_UNAVAILABLE, remembering nothing, and books on a retry with the same token once the slot is free", async () => {
    const salon = await googleSalon(1);
    const blocker = await salon.google(
      "CreateBooking",
      createRequest(salon, at("08:00"), "blocker", {
        user_information: googleUser("4444", "+49 151 44444444"),
      }),
    );
    expect(blocker.body.booking.status).toBe("CONFIRMED");
    const req = createRequest(salon, at("08:00"), "retried");
    const refused = await salon.google("CreateBooking", req);
    expect(refused.status).toBe(200);
    expect(refused.body.booking_failure.cause).toBe("SLOT_UNAVAILABLE");
    expect((await googleRows(salon.ws.id)).map((r) => r.idempotency_token)).toEqual(["blocker"]);

    const cancel = await salon.ws.api(
      `/bookings/${blocker.body.booking.booking_id}/status/cancel`,
      {
        method: "PUT",
        body: {},
      },
    );
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    const retried = await salon.google("CreateBooking", req);
    expect(retried.body.booking?.status, JSON.stringify(retried.body)).toBe("CONFIRMED");
  });

  it("answers SLOT_UNAVAILABLE to a duration that is not the service's, a start off hours, or a staffer who is not there", async () => {
    const salon = await googleSalon();
    const causes = await Promise.all(
      [
        createRequest(salon, at("08:00"), undefined, {
          slot: { ...slotAt(salon, at("08:00")), duration_sec: "3600" },
        }),
        createRequest(salon, at("20:00")),
        createRequest(salon, "2020-03-02T09:00:00Z"),
        createRequest(salon, at("08:00"), undefined, {
          slot: slotAt(salon, at("08:00"), { resources: { staff_id: crypto.randomUUID() } }),
        }),
      ].map(async (r) => (await salon.google("CreateBooking", r)).body.booking_failure?.cause),
    );
    expect(causes).toEqual([
      "SLOT_UNAVAILABLE",
      "SLOT_UNAVAILABLE",
      "SLOT_UNAVAILABLE",
      "SLOT_UNAVAILABLE",
    ]);
    expect(await bookingRows(salon.ws.id)).toEqual([]);
  });

  it("books the staffer Google names (resources.staff_id) and echoes the slot's resources", async () => {
    const salon = await googleSalon();
    const staffId = salon.staffers[2]?.uuid as string;
    const res = await salon.google(
      "CreateBooking",
      createRequest(salon, at("08:00"), undefined, {
        slot: slotAt(salon, at("08:00"), { resources: { staff_id: staffId } }),
      }),
    );
    expect(res.body.booking.slot.resources).toEqual({ staff_id: staffId });
    const got = await salon.ws.api(`/bookings/${res.body.booking.booking_id}`);
    expect(got.body.ordered_services[0].staffer_uuid).toBe(staffId);
  });

  it("answers 400 invalid_argument to an unknown merchant, another workspace's, an unknown service, a lease, a missing field or a bad phone", async () => {
    const salon = await googleSalon();
    const other = await createWorkspace();
    const elsewhere = await createLocation(other, { timezone: "Europe/Berlin" });
    const bodies = [
      createRequest(salon, at("08:00"), undefined, {
        slot: { ...slotAt(salon, at("08:00")), merchant_id: crypto.randomUUID() },
      }),
      createRequest(salon, at("08:00"), undefined, {
        slot: { ...slotAt(salon, at("08:00")), merchant_id: elsewhere.uuid },
      }),
      createRequest(salon, at("08:00"), undefined, {
        slot: { ...slotAt(salon, at("08:00")), service_id: crypto.randomUUID() },
      }),
      createRequest(salon, at("08:00"), undefined, { lease_ref: { lease_id: "l1" } }),
      createRequest(salon, at("08:00"), ""),
      createRequest(salon, at("08:00"), undefined, {
        user_information: { ...googleUser(), telephone: "" },
      }),
      createRequest(salon, at("08:00"), undefined, {
        user_information: { ...googleUser(), telephone: "12" },
      }),
      createRequest(salon, at("08:00"), undefined, {
        user_information: { ...googleUser(), given_name: "" },
      }),
    ];
    for (const body of bodies) {
      const res = await salon.google("CreateBooking", body);
      expect(res.status, JSON.stringify([body, res.body])).toBe(400);
      expect(res.body).toMatchObject({ code: "invalid_argument", errors: expect.any(Object) });
    }
    expect(await bookingRows(salon.ws.id)).toEqual([]);
  });

  it("answers OFFER_UNAVAILABLE to an offer or a deal, and accepts lowerCamel names", async () => {
    const salon = await googleSalon();
    const offer = await salon.google(
      "CreateBooking",
      createRequest(salon, at("08:00"), undefined, { offer_id: "o1" }),
    );
    expect(offer.body.booking_failure.cause).toBe("OFFER_UNAVAILABLE");
    const deal = await salon.google(
      "CreateBooking",
      createRequest(salon, at("08:00"), undefined, { deal_id: "d1" }),
    );
    expect(deal.body.booking_failure.cause).toBe("OFFER_UNAVAILABLE");
    const camel = await salon.google("CreateBooking", {
      slot: {
        merchantId: salon.location.uuid,
        serviceId: salon.cut.uuid,
        startSec: Number(sec(at("08:00"))),
        durationSec: 2700,
      },
      userInformation: { userId: "5", givenName: "Ben", telephone: "+49 151 55555555" },
      idempotencyToken: "camel",
    });
    expect(camel.body.booking?.status, JSON.stringify(camel.body)).toBe("CONFIRMED");
    expect(camel.body.booking.user_information).toEqual({
      user_id: "5",
      given_name: "Ben",
      telephone: "+49 151 55555555",
    });
  });

  it("answers PAYMENT_ERROR to a service that takes money online", async () => {
    const salon = await googleSalon();
    const paid = await paidService(salon, { mode: "deposit", deposit: { percent: 25 } }, 3500);
    const res = await salon.google(
      "CreateBooking",
      createRequest(salon, at("08:00"), undefined, {
        slot: { ...slotAt(salon, at("08:00")), service_id: paid, duration_sec: "3600" },
      }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking_failure?.cause, JSON.stringify(res.body)).toBe("PAYMENT_ERROR");
    expect(await bookingRows(salon.ws.id)).toEqual([]);
  });
});
