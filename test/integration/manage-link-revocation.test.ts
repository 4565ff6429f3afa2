import { beforeAll, describe, expect, it } from "vitest";
import { PUBLIC, type Received, send } from "../helpers/http";
import { createPublishableKey, type PublishableKey } from "../helpers/keys";
import { listedMessages, tokenIn } from "../helpers/messages";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

/**
 * A manage link opens the booking at the time it was issued for: once the
 * booking moves (through the link, a publishable key or staff), the links
 * issued before answer 401 `invalid_token` on every manage route, and the
 * messages that announce the new time (and the reminders re-written with it)
 * carry a link that opens it. The link lives until a day after the booking's
 * current end.
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

/** Every manage route refuses the token, and nothing about the booking changed. */
async function refusedEverywhere(token: string, bookingId: string, date: string) {
  const before = (await salon.ws.api(`/bookings/${bookingId}`)).body;
  for (const res of [
    await viaLink(token),
    await viaLink(`${token}/time-slots?range_start=${date}&range_end=${date}`),
    await viaLink(`${token}/reschedule`, { reserved_on: at("15:00", date) }),
    await viaLink(`${token}/cancel`, {}),
  ]) {
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body).toEqual(REFUSED);
  }
  const after = (await salon.ws.api(`/bookings/${bookingId}`)).body;
  expect(after).toMatchObject({ start_time: before.start_time, is_canceled: false });
}

describe("a link issued before a move no longer opens the booking", () => {
  it("moved through the link: the old link is 401 everywhere; the answer's and the message's links open it", async () => {
    const date = nextMonday();
    const { id, token } = await book(date);
    const moved = await viaLink(`${token}/reschedule`, { reserved_on: at("12:00", date) });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    // The answer carries the fresh link, so the manage page can go on without the old one.
    const fresh = moved.body.manage.token as string;
    expect(fresh).not.toBe(token);
    expect(moved.body.manage.expires_at).toBe(iso(Date.parse(moved.body.end_time) + DAY));
    await refusedEverywhere(token, id, date);
    const opened = await viaLink(fresh);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.booking.start_time).toBe(at("12:00", date));
    const told = await latestToken(id, "booking-rescheduled");
    expect((await viaLink(told)).status).toBe(200);
    // The reminder re-written with the move carries the new link too.
    expect((await viaLink(await latestToken(id, "booking-reminder"))).status).toBe(200);
  });

  it("moved with a publishable key: the old link is 401; the booking-rescheduled message's link opens it", async () => {
    const date = nextMonday();
    const { id, token } = await book(date);
    const moved = await pk.api(`/bookings/${id}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("13:00", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await refusedEverywhere(token, id, date);
    const told = await latestToken(id, "booking-rescheduled");
    const opened = await viaLink(told);
    expect(opened.status, JSON.stringify(opened.body)).toBe(200);
    expect(opened.body.booking.start_time).toBe(at("13:00", date));
  });

  it("moved by staff without a notification: the old link is 401; the re-written reminder's link opens it", async () => {
    const date = nextMonday();
    const { id, token } = await book(date);
    const moved = await salon.ws.api(`/bookings/${id}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("14:00", date), is_send_notification_on_reschedule: false },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await messagesOf(id)).map((m) => m.kind)).not.toContain("booking-rescheduled");
    await refusedEverywhere(token, id, date);
    expect((await viaLink(await latestToken(id, "booking-reminder"))).status).toBe(200);
  });

  it("the link follows the booking's current end: moved later, then earlier", async () => {
    const date = nextMonday();
    const later = nextMonday();
    const { id, token } = await book(date);
    const first = await viaLink(token);
    expect(first.body.manage.expires_at).toBe(iso(Date.parse(first.body.booking.end_time) + DAY));
    const out = await viaLink(`${token}/reschedule`, { reserved_on: at("10:00", later) });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    const outToken = out.body.manage.token as string;
    expect(out.body.manage.expires_at).toBe(iso(Date.parse(out.body.end_time) + DAY));
    // Moved back earlier: the link of the later time (which would expire later) is refused.
    const back = await viaLink(`${outToken}/reschedule`, { reserved_on: at("11:00", date) });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.manage.expires_at).toBe(iso(Date.parse(back.body.end_time) + DAY));
    await refusedEverywhere(outToken, id, date);
    const view = await viaLink(back.body.manage.token);
    expect(view.status).toBe(200);
    expect(view.body.manage.expires_at).toBe(iso(Date.parse(view.body.booking.end_time) + DAY));
  });

  it("a cancel does not move the booking: the link still shows it (canceled)", async () => {
    const date = nextMonday();
    const { token } = await book(date);
    expect((await viaLink(`${token}/cancel`, {})).status).toBe(200);
    const seen = await viaLink(token);
    expect(seen.status).toBe(200);
    expect(seen.body.booking.is_canceled).toBe(true);
  });

  it("a fresh link with one character changed is still 401", async () => {
    const date = nextMonday();
    const { id, token } = await book(date);
    const moved = await viaLink(`${token}/reschedule`, { reserved_on: at("12:00", date) });
    const fresh = moved.body.manage.token as string;
    const tampered = fresh.slice(0, 40) + (fresh[40] === "A" ? "B" : "A") + fresh.slice(41);
    await refusedEverywhere(tampered, id, date);
  });
});
