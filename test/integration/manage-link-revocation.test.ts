import { beforeAll, describe, expect, it } from "vitest";
import { PUBLIC, type Received, send } from "../helpers/http";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { listedMessages, tokenIn } from "../helpers/messages";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * A manage link opens its customer's booking as the booking now is: the
 * booking's current state decides, not the link's age. Once the booking moves
 * (through the link, a publishable key or staff), the link of the first
 * e-mail still opens it, at the new time, on every manage route, and lives
 * until a day after the booking's current end. (A link stops opening a
 * booking that is no longer its customer's: test/unit/manage-token.test.ts.)
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
  return new Date(Date.UTC(2031, 10, 3) + week * 7 * 86_400_000).toISOString().slice(0, 10);
};
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

let addresses = 0;
/** Each call from an address of its own: the per-address limit is not what is tested here. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function viaLink(path: string, body?: unknown): Promise<Received<any>> {
  addresses += 1;
  return send(`${PUBLIC}/manage/${path}`, {
    ...(body === undefined ? {} : { method: "POST", body }),
    headers: { "cf-connecting-ip": `198.51.100.${100 + (addresses % 150)}` },
  });
}

interface Message {
  kind: string;
  status: string;
  body: string;
}

const messagesOf = (bookingId: string) => listedMessages<Message>(salon.ws.api, bookingId);

/** The token of the newest message of `kind` (the list is oldest first). */
const latestToken = async (bookingId: string, kind: string) => {
  const found = (await messagesOf(bookingId)).filter((m) => m.kind === kind).at(-1);
  return tokenIn(found?.body ?? "");
};

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
  const id = res.body.uuid as string;
  return { id, token: await latestToken(id, "booking-confirmation") };
}

const REFUSED = {
  message: "The link is invalid or has expired; ask the salon for a new one.",
  code: "invalid_token",
};

/** The link opens the booking at `start` (its current time) on the view and the slot search. */
async function opensAt(token: string, start: string, date: string) {
  const seen = await viaLink(token);
  expect(seen.status, JSON.stringify(seen.body)).toBe(200);
  expect(seen.body.booking.start_time).toBe(start);
  expect(seen.body.manage.expires_at).toBe(iso(Date.parse(seen.body.booking.end_time) + DAY));
  const slots = await viaLink(`${token}/time-slots?range_start=${date}&range_end=${date}`);
  expect(slots.status, JSON.stringify(slots.body)).toBe(200);
  return seen.body;
}

describe("the link of the first e-mail opens the booking wherever it moved", () => {
  it("moved through the link: GET /manage/{old token} is 200 with the new time, and moves and cancels it", async () => {
    const date = nextMonday();
    const { id, token } = await book(date);
    const moved = await viaLink(`${token}/reschedule`, { reserved_on: at("12:00", date) });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.manage.expires_at).toBe(iso(Date.parse(moved.body.end_time) + DAY));
    await opensAt(token, at("12:00", date), date);
    // The links written since (the answer's, the booking-rescheduled message's, the re-written
    // reminder's) open it too.
    await opensAt(moved.body.manage.token, at("12:00", date), date);
    await opensAt(await latestToken(id, "booking-rescheduled"), at("12:00", date), date);
    await opensAt(await latestToken(id, "booking-reminder"), at("12:00", date), date);
    // The old link moves it again, then cancels it.
    const again = await viaLink(`${token}/reschedule`, { reserved_on: at("13:00", date) });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.start_time).toBe(at("13:00", date));
    const canceled = await viaLink(`${token}/cancel`, {});
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect((await viaLink(token)).body.booking.is_canceled).toBe(true);
  });

  it("moved with a publishable key: the confirmation's link shows the new time", async () => {
    const date = nextMonday();
    const { id, token } = await book(date);
    const moved = await pk.api(`/bookings/${id}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("13:00", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await opensAt(token, at("13:00", date), date);
  });

  it("moved by staff without a notification: the confirmation's link shows the new time", async () => {
    const date = nextMonday();
    const { id, token } = await book(date);
    const moved = await salon.ws.api(`/bookings/${id}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("14:00", date), is_send_notification_on_reschedule: false },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await messagesOf(id)).map((m) => m.kind)).not.toContain("booking-rescheduled");
    await opensAt(token, at("14:00", date), date);
  });

  it("the link's expiry follows the booking's current end: moved a week later, the old link lives on past its first expiry", async () => {
    const date = nextMonday();
    const later = nextMonday();
    const { token } = await book(date);
    const first = await opensAt(token, at("09:00", date), date);
    const out = await viaLink(`${token}/reschedule`, { reserved_on: at("10:00", later) });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const seen = await opensAt(token, at("10:00", later), later);
    expect(Date.parse(seen.manage.expires_at)).toBeGreaterThan(
      Date.parse(first.manage.expires_at) + 6 * DAY,
    );
    // Moved back earlier: the expiry comes back with the end.
    const back = await viaLink(`${token}/reschedule`, { reserved_on: at("11:00", date) });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    await opensAt(token, at("11:00", date), date);
  });

  it("a cancel does not close the link: it still shows the booking (canceled)", async () => {
    const date = nextMonday();
    const { token } = await book(date);
    expect((await viaLink(`${token}/cancel`, {})).status).toBe(200);
    const seen = await viaLink(token);
    expect(seen.status).toBe(200);
    expect(seen.body.booking.is_canceled).toBe(true);
  });

  it("the old link with one character changed is 401 everywhere, after a move too", async () => {
    const date = nextMonday();
    const { id, token } = await book(date);
    const moved = await viaLink(`${token}/reschedule`, { reserved_on: at("12:00", date) });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const tampered = token.slice(0, 40) + (token[40] === "A" ? "B" : "A") + token.slice(41);
    const before = (await salon.ws.api(`/bookings/${id}`)).body;
    for (const res of [
      await viaLink(tampered),
      await viaLink(`${tampered}/time-slots?range_start=${date}&range_end=${date}`),
      await viaLink(`${tampered}/reschedule`, { reserved_on: at("15:00", date) }),
      await viaLink(`${tampered}/cancel`, {}),
    ]) {
      expect(res.status, JSON.stringify(res.body)).toBe(401);
      expect(res.body).toEqual(REFUSED);
    }
    const after = (await salon.ws.api(`/bookings/${id}`)).body;
    expect(after).toMatchObject({ start_time: before.start_time, is_canceled: false });
  });
});

describe("the manage view names the salon's zone", () => {
  it("answers the location's zone, not the zone the booking's client asked in", async () => {
    const date = nextMonday();
    const res = await salon.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        service_uuid: salon.cut.uuid,
        staffer_uuid: salon.staffers[0]?.uuid,
        reserved_on: at("09:00", date),
        timezone: "Europe/Paris",
        ...customer(),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const token = await latestToken(res.body.uuid as string, "booking-confirmation");
    const seen = await viaLink(token);
    expect(seen.status, JSON.stringify(seen.body)).toBe(200);
    expect(seen.body.booking.timezone).toBe("Europe/Paris");
    expect(seen.body.timezone).toBe("Europe/Berlin");
    expect(seen.body.timezone).toBe(salon.location.timezone);
  });
});
