import { beforeAll, describe, expect, it } from "vitest";
import { rowCount } from "../helpers/db";
import { createWorkspace } from "../helpers/factory";
import { ADMIN, admin, d1RoundTrips, PUBLIC, send } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { at, createSalon, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

const FIELDS = [
  "customer_email",
  "customer_last_name",
  "customer_middle_name",
  "booking_comment",
] as const;
type Field = (typeof FIELDS)[number];
const ALL_OPTIONAL = Object.fromEntries(FIELDS.map((f) => [f, "optional"]));

const VALUES: Record<Field, string> = {
  customer_email: "anna@example.com",
  customer_last_name: "Berg",
  customer_middle_name: "Maria",
  booking_comment: "Window seat, please",
};

let salon: Salon;
beforeAll(async () => {
  salon = await createSalon();
});

const putForm = (body: unknown, workspaceId = salon.ws.id) =>
  admin(`/workspaces/${workspaceId}/booking-form`, { method: "PUT", body });

let n = 0;
/** A fresh phone and a weekday of its own, so cases share neither customer nor time. */
function nextCase() {
  n += 1;
  const date = new Date(Date.UTC(2030, 5, 3) + n * 7 * 86_400_000).toISOString().slice(0, 10);
  return { date, phone: `+49 151 2345${String(n).padStart(4, "0")}` };
}

/** The create paths: plain single and cart bookings, and each made from a reservation. */
type Path = "single" | "cart" | "reserved single" | "reserved cart";
const isCart = (path: Path) => path.endsWith("cart");

async function reserve(date: string, cart: boolean) {
  const res = await salon.ws.api("/reservations", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      items: [
        {
          datetime_start: at("09:00", date),
          services: cart
            ? [{ service_uuid: salon.cut.uuid }, { service_uuid: salon.colour.uuid }]
            : [{ service_uuid: salon.cut.uuid }],
        },
      ],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.uuid as string;
}

async function create(
  path: Path,
  fields: Partial<Record<Field, string>>,
  reservation?: { date: string; uuid: string; phone: string },
) {
  const { date, phone } = reservation ?? nextCase();
  const common = { customer_phone: phone, customer_first_name: "Anna", ...fields };
  const held = path.startsWith("reserved")
    ? { reservation_uuid: reservation?.uuid ?? (await reserve(date, isCart(path))) }
    : {};
  return isCart(path)
    ? salon.ws.api("/bookings/cart", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          items: [
            {
              datetime_start: at("09:00", date),
              services: [{ service_uuid: salon.cut.uuid }, { service_uuid: salon.colour.uuid }],
            },
          ],
          ...held,
          ...common,
        },
      })
    : salon.ws.api("/bookings", {
        method: "POST",
        body: {
          location_uuid: salon.location.uuid,
          service_uuid: salon.cut.uuid,
          reserved_on: at("09:00", date),
          ...held,
          ...common,
        },
      });
}

const bookingOf = (path: Path, body: { bookings?: unknown[] }) =>
  (isCart(path) ? body.bookings?.[0] : body) as {
    customer_uuid: string;
    public_notes: string;
  };

/** What was stored of each form field: the customer's row and the booking's public notes. */
async function stored(path: Path, body: { bookings?: unknown[] }) {
  const booking = bookingOf(path, body);
  const customer = await everyShard
    .prepare("select email, last_name, middle_name from customers where id = ?")
    .bind(booking.customer_uuid)
    .first<{ email: string | null; last_name: string | null; middle_name: string | null }>();
  return {
    customer_email: customer?.email ?? null,
    customer_last_name: customer?.last_name ?? null,
    customer_middle_name: customer?.middle_name ?? null,
    booking_comment: booking.public_notes === "" ? null : booking.public_notes,
  };
}

describe("GET /booking-form", () => {
  it("is all optional until the workspace sets it, and reads in one round trip after the key check", async () => {
    const ws = await createWorkspace();
    const res = await ws.api("/booking-form");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(ALL_OPTIONAL);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(2);
  });

  it("shows the form once set, to a publishable key too", async () => {
    const ws = await createWorkspace();
    const form = {
      customer_email: "required",
      customer_last_name: "optional",
      customer_middle_name: "hidden",
      booking_comment: "hidden",
    };
    const put = await putForm(form, ws.id);
    expect(put.status).toBe(200);
    expect(put.body).toEqual(form);
    expect((await ws.api("/booking-form")).body).toEqual(form);
    const pk = await createPublishableKey(ws);
    const res = await pk.api("/booking-form", { headers: { origin: "https://salon.example" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(form);
  });

  it("needs an API key", async () => {
    expect((await send(`${PUBLIC}/booking-form`)).status).toBe(401);
  });

  it("one workspace's form does not touch another's, nor its bookings", async () => {
    const a = await createWorkspace();
    const b = await createWorkspace();
    await putForm({ customer_email: "required", booking_comment: "hidden" }, a.id);
    expect((await b.api("/booking-form")).body).toEqual(ALL_OPTIONAL);
    // salon's own workspace is untouched as well: a booking without an e-mail goes through.
    await putForm({}, salon.ws.id);
    const res = await create("single", { booking_comment: "Kept" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.public_notes).toBe("Kept");
  });
});

describe("PUT /workspaces/{ws}/booking-form", () => {
  it("replaces the whole form: a field left out is optional again", async () => {
    const ws = await createWorkspace();
    await putForm({ customer_email: "required", customer_last_name: "hidden" }, ws.id);
    const res = await putForm({ booking_comment: "required" }, ws.id);
    expect(res.body).toEqual({ ...ALL_OPTIONAL, booking_comment: "required" });
    expect((await ws.api("/booking-form")).body).toEqual(res.body);
    expect(await rowCount("booking_forms", ws.id)).toBe(1);
  });

  it.each([
    ["an unknown field", { customer_phone: "required" }, "customer_phone"],
    ["a misspelt field", { customer_emial: "required" }, "customer_emial"],
    ["an unknown mode", { customer_email: "mandatory" }, "customer_email"],
    ["a mode of the wrong type", { booking_comment: true }, "booking_comment"],
    ["a null mode", { customer_last_name: null }, "customer_last_name"],
  ])("refuses %s with 422 on that field and keeps the form", async (_, body, field) => {
    const ws = await createWorkspace();
    await putForm({ customer_middle_name: "hidden" }, ws.id);
    const res = await putForm({ customer_email: "required", ...body }, ws.id);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(Object.keys(res.body.errors)).toEqual([field]);
    expect((await ws.api("/booking-form")).body).toEqual({
      ...ALL_OPTIONAL,
      customer_middle_name: "hidden",
    });
  });

  it("a body that is not an object is 422", async () => {
    const ws = await createWorkspace();
    expect((await putForm(["customer_email"], ws.id)).status).toBe(422);
  });

  it("two PUTs started together: both answer, one whole form wins, one row", async () => {
    const ws = await createWorkspace();
    const first = { ...ALL_OPTIONAL, customer_email: "required", booking_comment: "hidden" };
    const second = { ...ALL_OPTIONAL, customer_last_name: "required" };
    const [a, b] = await Promise.all([putForm(first, ws.id), putForm(second, ws.id)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    // Never a mix of the two: each PUT writes the whole form in one statement.
    expect([first, second]).toContainEqual((await ws.api("/booking-form")).body);
    expect(await rowCount("booking_forms", ws.id)).toBe(1);
  });

  it("an unknown workspace is 404 and stores nothing; a bad workspace id is 422", async () => {
    const before = await rowCount("booking_forms");
    const unknown = "00000000-0000-4000-8000-000000000000";
    const res = await putForm({ customer_email: "required" }, unknown);
    expect(res.status).toBe(404);
    expect(await rowCount("booking_forms")).toBe(before);
    expect((await putForm({}, "nope")).status).toBe(422);
  });

  it("needs the admin token", async () => {
    const res = await send(`${ADMIN}/workspaces/${salon.ws.id}/booking-form`, {
      method: "PUT",
      body: {},
    });
    expect(res.status).toBe(401);
  });
});

describe.each<Path>(["single", "cart", "reserved single", "reserved cart"])(
  "the form on %s bookings",
  (path) => {
    describe.each(FIELDS)("%s", (field) => {
      it("required: missing or blank is 422 on that field and writes nothing; sent is stored", async () => {
        await putForm({ [field]: "required" });
        const others = Object.fromEntries(
          FIELDS.filter((f) => f !== field).map((f) => [f, VALUES[f]]),
        );
        const before = await rowCount("bookings", salon.ws.id);
        const missing = await create(path, others);
        expect(missing.status, JSON.stringify(missing.body)).toBe(422);
        expect(missing.body.code).toBe("validation_failed");
        expect(Object.keys(missing.body.errors)).toEqual([field]);
        if (field !== "customer_email") {
          const blank = await create(path, {
            ...others,
            [field]: field === "booking_comment" ? "  " : " ",
          });
          expect(blank.status).toBe(422);
          expect(Object.keys(blank.body.errors)).toEqual([field]);
        }
        expect(await rowCount("bookings", salon.ws.id)).toBe(before);

        const sent = await create(path, { ...others, [field]: VALUES[field] });
        expect(sent.status, JSON.stringify(sent.body)).toBe(201);
        expect((await stored(path, sent.body))[field]).toBe(VALUES[field]);
        // The form rides in the booking's read batch: no round trip of its own.
        if (!path.startsWith("reserved")) expect(d1RoundTrips(sent.headers)).toBeLessThanOrEqual(3);
      });

      it("optional: may be left out, and is stored when sent", async () => {
        await putForm({ [field]: "optional" });
        const without = await create(path, {});
        expect(without.status, JSON.stringify(without.body)).toBe(201);
        expect((await stored(path, without.body))[field]).toBeNull();
        const sent = await create(path, { [field]: VALUES[field] });
        expect(sent.status).toBe(201);
        expect((await stored(path, sent.body))[field]).toBe(VALUES[field]);
      });

      it("hidden: sent is ignored and not stored; the other fields are", async () => {
        await putForm({ [field]: "hidden" });
        const res = await create(path, VALUES);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        const kept = await stored(path, res.body);
        expect(kept[field]).toBeNull();
        for (const other of FIELDS.filter((f) => f !== field))
          expect(kept[other]).toBe(VALUES[other]);
      });
    });
  },
);

describe("a booking from a reservation", () => {
  it("refused by the form, leaves the reservation usable", async () => {
    await putForm({ customer_last_name: "required" });
    const { date, phone } = nextCase();
    const uuid = await reserve(date, false);
    const refused = await create("reserved single", {}, { date, uuid, phone });
    expect(refused.status).toBe(422);
    expect(Object.keys(refused.body.errors)).toEqual(["customer_last_name"]);
    expect((await salon.ws.api(`/reservations/${uuid}`)).status).toBe(200);
    const booked = await create(
      "reserved single",
      { customer_last_name: "Berg" },
      { date, uuid, phone },
    );
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    expect((await salon.ws.api(`/reservations/${uuid}`)).status).toBe(404);
  });
});
