import { beforeAll, describe, expect, it } from "vitest";
import { admin } from "../helpers/http";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * A customer's names are written into the salon's e-mails (subject and body):
 * each is one line of at most 100 characters, with no control characters
 * (CR, LF, TAB…), no line or paragraph separators and no text-direction
 * controls. Anything else is 422 on the field, and nothing is written.
 */
let salon: Salon;
let pk: PublishableKey;
beforeAll(async () => {
  salon = await createSalon();
  pk = await createPublishableKey(salon.ws);
});

let week = 0;
const nextMonday = () => {
  week += 1;
  return new Date(Date.UTC(2031, 0, 6) + week * 7 * 86_400_000).toISOString().slice(0, 10);
};
let phones = 0;
const someone = () => {
  phones += 1;
  return customer(`+49 151 ${String(60_000_000 + phones)}`);
};

const MESSAGE =
  "A name is one line of text: no line breaks, tabs, control or text-direction characters.";
const HOSTILE = [
  "Anna\r\nBcc: victim@example.com",
  "Anna\nBerg",
  "Anna\rBerg",
  "Anna\tBerg",
  "Anna\u0000",
  "Anna\u0085Berg",
  "Anna\u2028Berg",
  "Anna\u2029Berg",
  "\u202eannA",
  "Anna\u2066Berg",
];
const FIELDS = ["customer_first_name", "customer_last_name", "customer_middle_name"] as const;

const single = (date: string, over: Record<string, unknown>, api = pk.api) =>
  api("/bookings", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      service_uuid: salon.cut.uuid,
      reserved_on: at("10:00", date),
      ...someone(),
      ...over,
    },
  });

const cart = (date: string, over: Record<string, unknown>, api = pk.api) =>
  api("/bookings/cart", {
    method: "POST",
    body: {
      location_uuid: salon.location.uuid,
      items: [{ service_uuid: salon.cut.uuid, reserved_on: at("11:00", date) }],
      ...someone(),
      ...over,
    },
  });

const bookingsOn = async (date: string) => {
  const res = await salon.ws.api(
    `/bookings?location_uuid=${salon.location.uuid}&range_start=${date}&range_end=${date}`,
  );
  return res.body.data?.length ?? 0;
};

describe("customer names are single lines", () => {
  it("a booking and a cart refuse each hostile name at its field (422), writing nothing", async () => {
    const date = nextMonday();
    for (const field of FIELDS)
      for (const name of HOSTILE) {
        for (const send of [single, cart]) {
          const res = await send(date, { [field]: name });
          expect(res.status, `${field} ${JSON.stringify(name)}`).toBe(422);
          expect(res.body).toMatchObject({
            code: "validation_failed",
            errors: { [field]: [MESSAGE] },
          });
        }
      }
    // A secret key is held to the same rule.
    const staff = await single(date, { customer_first_name: "Anna\r\nBerg" }, salon.ws.api);
    expect(staff.status).toBe(422);
    expect(await bookingsOn(date)).toBe(0);
  });

  it("100 characters is a name; 101 is 422 at the field", async () => {
    const date = nextMonday();
    const ok = await single(date, { customer_first_name: "A".repeat(100) });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const long = await cart(date, { customer_last_name: "B".repeat(101) });
    expect(long.status).toBe(422);
    expect(long.body.errors).toHaveProperty("customer_last_name");
  });

  it("names of every script, with spaces, hyphens and apostrophes, are names", async () => {
    const date = nextMonday();
    for (const [i, name] of [
      "Zoë O'Brien-Łukasiewicz",
      "José María",
      "山田 太郎",
      "محمد",
      "Nguyễn Thị",
      "www.example.com",
    ].entries()) {
      const res = await single(
        date,
        {
          customer_first_name: name,
          reserved_on: at(`${String(9 + i).padStart(2, "0")}:00`, date),
        },
        salon.ws.api,
      );
      expect(res.status, `${name}: ${JSON.stringify(res.body)}`).toBe(201);
    }
  });

  it("a customer imported through the management API is held to the same rule", async () => {
    const res = await admin(`/workspaces/${salon.ws.id}/customers`, {
      method: "POST",
      body: { first_name: "Anna\nBerg", phone: "+49 151 77700001" },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ first_name: [MESSAGE] });
  });
});
