import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { failpoints } from "../../src/platform/failpoints";
import { createWorkspace } from "../helpers/factory";
import { admin, type Client, d1RoundTrips } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { at, createSalon, customer, type Salon } from "../helpers/salon";

afterEach(() => failpoints.disarmAll());

let salon: Salon;
beforeAll(async () => {
  salon = await createSalon();
});

let week = 0;
/** A Monday of its own per call (from 2030-05-06), so tests never share calendar time. */
const nextMonday = () => {
  week += 1;
  return new Date(Date.UTC(2030, 4, 6) + week * 7 * 86_400_000).toISOString().slice(0, 10);
};

let phones = 0;
/** A customer of its own per call, so their messages are theirs alone. */
const someone = (over: Record<string, unknown> = {}) => {
  phones += 1;
  return { ...customer(`+49 151 ${String(30_000_000 + phones)}`), ...over };
};

const book = async (s: Salon, body: Record<string, unknown>, api: Client = s.ws.api) => {
  const res = await api("/bookings", {
    method: "POST",
    body: {
      location_uuid: s.location.uuid,
      service_uuid: s.cut.uuid,
      staffer_uuid: s.staffers[0]?.uuid,
      ...body,
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res;
};

interface Message {
  uuid: string;
  kind: string;
  channel: string;
  to: string;
  locale: string;
  subject: string | null;
  body: string;
  booking_uuid: string;
  customer_uuid: string;
  status: string;
  scheduled_for: string;
  sent_at: string | null;
  attempts: number;
  error: string | null;
  skip_reason: string | null;
}

const messagesOf = async (s: Salon, query: string): Promise<Message[]> => {
  const res = await s.ws.api(`/messages?per_page=100&${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // A read: one D1 round trip, the key check included.
  expect(d1RoundTrips(res.headers)).toBe(1);
  return res.body.data;
};

const settingsOf = (s: Salon, body: unknown) =>
  admin(`/workspaces/${s.ws.id}/notification-settings`, { method: "PUT", body });

const DEFAULTS = {
  email: { enabled: true, from_name: "Salon", from_email: "hello@salon.example" },
  sms: { enabled: false },
  reminders: [{ channel: "email", minutes_before: 1440 }],
  templates: {},
};

describe("messages on create", () => {
  it("a booking gets one e-mail confirmation and a reminder a day before, in the customer's language", async () => {
    const date = nextMonday();
    const res = await book(salon, {
      reserved_on: at("09:00", date),
      ...someone({ customer_browser_language: "de-AT" }),
    });
    const list = await messagesOf(salon, `booking_uuid=${res.body.uuid}`);
    expect(list.map((m) => [m.kind, m.channel, m.status])).toEqual([
      ["booking-confirmation", "email", "scheduled"],
      ["booking-reminder", "email", "scheduled"],
    ]);
    const [confirmation, reminder] = list;
    expect(confirmation).toMatchObject({
      to: "anna@example.com",
      locale: "de",
      booking_uuid: res.body.uuid,
      customer_uuid: res.body.customer_uuid,
      sent_at: null,
      attempts: 0,
      error: null,
    });
    // 09:00Z in May is 11:00 in Berlin (CEST, UTC+2): written in the location's zone.
    expect(confirmation?.subject).toContain("bestätigt");
    expect(confirmation?.body).toContain("11:00");
    expect(confirmation?.body).toContain("Haircut");
    expect(confirmation?.body).toContain(`/bookings/${res.body.uuid}/ical?token=`);
    expect(confirmation?.body).not.toContain("{{");
    expect(reminder?.scheduled_for).toBe(
      new Date(Date.parse(at("09:00", date)) - 86_400_000).toISOString().replace(".000", ""),
    );
    const one = await salon.ws.api(`/messages/${confirmation?.uuid}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(confirmation);
  });

  it("a cart gets ONE confirmation listing every item, and a reminder per booking", async () => {
    const date = nextMonday();
    const res = await salon.ws.api("/bookings/cart", {
      method: "POST",
      body: {
        location_uuid: salon.location.uuid,
        items: [
          { datetime_start: at("09:00", date), services: [{ service_uuid: salon.cut.uuid }] },
          { datetime_start: at("13:00", date), services: [{ service_uuid: salon.colour.uuid }] },
        ],
        ...someone(),
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    const list = await messagesOf(salon, `customer_uuid=${res.body.bookings[0].customer_uuid}`);
    const confirmations = list.filter((m) => m.kind === "booking-confirmation");
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]?.body).toContain("Haircut");
    expect(confirmations[0]?.body).toContain("Colouring");
    expect(confirmations[0]?.body).toContain("11:00");
    expect(confirmations[0]?.body).toContain("3:00 PM");
    expect(list.filter((m) => m.kind === "booking-reminder").map((m) => m.booking_uuid)).toEqual(
      res.body.bookings.map((b: { uuid: string }) => b.uuid),
    );
  });

  it("a cart at its maximum (10 items) writes its messages in the same batch", async () => {
    const s = await createSalon(2);
    const date = nextMonday();
    // Two staffers, five hours: 10 items, each 07:00Z–11:00Z (09:00–13:00 in Berlin).
    const items = Array.from({ length: 10 }, (_, i) => ({
      datetime_start: at(`${String(7 + Math.floor(i / 2)).padStart(2, "0")}:00`, date),
      services: [{ service_uuid: s.cut.uuid, staffer_uuid: s.staffers[i % 2]?.uuid }],
    }));
    // Three reminders per booking: 10 × 3 + 2 confirmations = 32 rows.
    const saved = await settingsOf(s, {
      ...DEFAULTS,
      sms: { enabled: true },
      reminders: [
        { channel: "email", minutes_before: 1440 },
        { channel: "sms", minutes_before: 120 },
        { channel: "email", minutes_before: 60 },
      ],
    });
    expect(saved.status).toBe(200);
    const res = await s.ws.api("/bookings/cart", {
      method: "POST",
      body: { location_uuid: s.location.uuid, items, ...someone() },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(d1RoundTrips(res.headers)).toBeLessThanOrEqual(3);
    const list = await messagesOf(s, `customer_uuid=${res.body.bookings[0].customer_uuid}`);
    expect(list).toHaveLength(2 + 30);
    expect(list.filter((m) => m.kind === "booking-confirmation").map((m) => m.channel)).toEqual([
      "email",
      "sms",
    ]);
  });

  it("each enabled channel that reaches the customer; an opted-out channel is skipped", async () => {
    const s = await createSalon(1);
    const saved = await settingsOf(s, { ...DEFAULTS, sms: { enabled: true }, reminders: [] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const who = someone();
    const first = await book(s, { reserved_on: at("09:00", nextMonday()), ...who });
    const customerId = first.body.customer_uuid;
    expect(
      (await messagesOf(s, `customer_uuid=${customerId}`)).map((m) => [m.channel, m.status, m.to]),
    ).toEqual([
      ["email", "scheduled", "anna@example.com"],
      ["sms", "scheduled", expect.stringMatching(/^\+49151/)],
    ]);

    const noEmail = someone();
    delete (noEmail as { customer_email?: string }).customer_email;
    const second = await book(s, { reserved_on: at("09:00", nextMonday()), ...noEmail });
    expect((await messagesOf(s, `booking_uuid=${second.body.uuid}`)).map((m) => m.channel)).toEqual(
      ["sms"],
    );

    const patched = await s.ws.api(`/customers/${customerId}`, {
      method: "PATCH",
      body: { notifications: { sms: false } },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.notifications).toEqual({ email: true, sms: false });
    const third = await book(s, { reserved_on: at("09:00", nextMonday()), ...who });
    expect(
      (await messagesOf(s, `booking_uuid=${third.body.uuid}`)).map((m) => [m.channel, m.status]),
    ).toEqual([
      ["email", "scheduled"],
      ["sms", "skipped"],
    ]);
    // Why it was skipped, as every skipped message says.
    expect(
      (await messagesOf(s, `booking_uuid=${third.body.uuid}`)).map((m) => m.skip_reason),
    ).toEqual([null, "opted_out"]);
    expect(
      (
        await s.ws.api(`/customers/${customerId}`, {
          method: "PATCH",
          body: { notifications: { sms: "no" } },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await s.ws.api(`/customers/00000000-0000-4000-8000-000000000000`, {
          method: "PATCH",
          body: { notifications: { sms: false } },
        })
      ).status,
    ).toBe(404);
  });

  it("a reminder whose time has passed is not created", async () => {
    const s = await createSalon(1);
    await settingsOf(s, {
      ...DEFAULTS,
      reminders: [
        { channel: "email", minutes_before: 60 },
        { channel: "email", minutes_before: 20_160 },
      ],
    });
    // A weekday 3–5 days from now, 10:00Z: within two weeks, so the 2-week reminder has passed.
    const day = new Date(Date.now() + 3 * 86_400_000);
    while ([0, 6].includes(day.getUTCDay())) day.setUTCDate(day.getUTCDate() + 1);
    const start = at("10:00", day.toISOString().slice(0, 10));
    const res = await book(s, { reserved_on: start, ...someone() });
    const reminders = await messagesOf(s, `booking_uuid=${res.body.uuid}&kind=booking-reminder`);
    expect(reminders.map((m) => m.scheduled_for)).toEqual([
      new Date(Date.parse(start) - 3_600_000).toISOString().replace(".000", ""),
    ]);
  });
});

describe("messages on change", () => {
  it("a reschedule moves the reminders (re-timed, re-written) and says nothing unless asked", async () => {
    const date = nextMonday();
    const res = await book(salon, { reserved_on: at("09:00", date), ...someone() });
    const id = res.body.uuid;
    const moved = await salon.ws.api(`/bookings/${id}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("12:00", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    let list = await messagesOf(salon, `booking_uuid=${id}`);
    expect(list.map((m) => m.kind)).toEqual(["booking-confirmation", "booking-reminder"]);
    const reminder = list[1];
    expect(reminder?.scheduled_for).toBe(
      new Date(Date.parse(at("12:00", date)) - 86_400_000).toISOString().replace(".000", ""),
    );
    expect(reminder?.body).toContain("2:00");
    expect(reminder?.status).toBe("scheduled");

    const told = await salon.ws.api(`/bookings/${id}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("13:00", date), is_send_notification_on_reschedule: true },
    });
    expect(told.status, JSON.stringify(told.body)).toBe(200);
    list = await messagesOf(salon, `booking_uuid=${id}`);
    expect(list.map((m) => m.kind)).toEqual([
      "booking-confirmation",
      "booking-reminder",
      "booking-rescheduled",
    ]);
    expect(list[2]?.body).toContain("3:00");
  });

  it("a reminder moved to a time already past is canceled; a staffer change re-writes it", async () => {
    const s = await createSalon(2);
    await settingsOf(s, { ...DEFAULTS, reminders: [{ channel: "email", minutes_before: 20_160 }] });
    const weekday = (days: number) => {
      const day = new Date(Date.now() + days * 86_400_000);
      while ([0, 6].includes(day.getUTCDay())) day.setUTCDate(day.getUTCDate() + 1);
      return day.toISOString().slice(0, 10);
    };
    const res = await book(s, { reserved_on: at("10:00", weekday(20)), ...someone() });
    const id = res.body.uuid;
    const handed = await s.ws.api(`/bookings/${id}/staffer`, {
      method: "PUT",
      body: { staffer_uuid: s.staffers[1]?.uuid },
    });
    expect(handed.status, JSON.stringify(handed.body)).toBe(200);
    const [reminder] = await messagesOf(s, `booking_uuid=${id}&kind=booking-reminder`);
    expect(reminder?.status).toBe("scheduled");
    expect(reminder?.body).toContain("Staff 1");
    expect(reminder?.body).not.toContain("Staff 0");

    const moved = await s.ws.api(`/bookings/${id}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("10:00", weekday(3)) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(
      (await messagesOf(s, `booking_uuid=${id}&kind=booking-reminder`)).map((m) => m.status),
    ).toEqual(["canceled"]);
  });

  it("writes local times right on both sides of a daylight-saving change", async () => {
    // Berlin moves to summer time on Sunday 2030-03-31: 10:00 local is 09:00Z before, 08:00Z after.
    for (const start of ["2030-03-29T09:00:00Z", "2030-04-01T08:00:00Z"]) {
      const res = await book(salon, {
        reserved_on: start,
        ...someone({ customer_browser_language: "de" }),
      });
      const [confirmation] = await messagesOf(
        salon,
        `booking_uuid=${res.body.uuid}&kind=booking-confirmation`,
      );
      expect(confirmation?.body).toContain(
        start.startsWith("2030-03-29")
          ? "Freitag, 29. März 2030, 10:00"
          : "Montag, 1. April 2030, 10:00",
      );
    }
  });

  it("writes a daylight-saving week right in each of the four languages", async () => {
    // Berlin moves to summer time on Sunday 2031-03-30: Friday 09:00Z is 10:00 local, Monday 08:00Z too.
    const days = {
      en: ["Friday", "Monday"],
      de: ["Freitag", "Montag"],
      fr: ["vendredi", "lundi"],
      es: ["viernes", "lunes"],
    };
    for (const [i, [language, [friday, monday]]] of Object.entries(days).entries()) {
      for (const [start, weekday] of [
        [`2031-03-28T${String(9 + i).padStart(2, "0")}:00:00Z`, friday],
        [`2031-03-31T${String(8 + i).padStart(2, "0")}:00:00Z`, monday],
      ] as const) {
        const res = await book(salon, {
          reserved_on: start,
          ...someone({ customer_browser_language: language }),
        });
        const [confirmation] = await messagesOf(
          salon,
          `booking_uuid=${res.body.uuid}&kind=booking-confirmation`,
        );
        expect(confirmation?.locale, start).toBe(language);
        expect(confirmation?.body, `${language} ${start}`).toContain(weekday);
        expect(confirmation?.body, `${language} ${start}`).toContain(`${10 + i}:00`);
      }
    }
  });

  it("a browser language no formatter takes is ignored, never a 500 (now or on later bookings)", async () => {
    const pk = (await createPublishableKey(salon.ws)).api;
    const date = nextMonday();
    const who = someone({ customer_browser_language: "en-US-US" });
    const first = await book(salon, { reserved_on: at("09:00", date), ...who }, pk);
    const [confirmation] = await messagesOf(salon, `booking_uuid=${first.body.uuid}`);
    expect(confirmation?.locale).toBe("en");
    // The customer keeps no such tag: staff's next booking for them is written as usual.
    const next = await book(salon, {
      reserved_on: at("12:00", date),
      ...who,
      customer_browser_language: undefined,
    });
    expect((await messagesOf(salon, `booking_uuid=${next.body.uuid}`)).length).toBeGreaterThan(0);
  });

  it("a customer's own reschedule (publishable key) always tells them", async () => {
    const pk = (await createPublishableKey(salon.ws)).api;
    const date = nextMonday();
    const res = await book(salon, { reserved_on: at("09:00", date), ...someone() }, pk);
    const moved = await pk(`/bookings/${res.body.uuid}/reschedule`, {
      method: "PUT",
      body: { reserved_on: at("12:00", date) },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const list = await messagesOf(salon, `booking_uuid=${res.body.uuid}&kind=booking-rescheduled`);
    expect(list).toHaveLength(1);
    // The publishable key reads no messages.
    const refused = await pk("/messages");
    expect(refused.status).toBe(403);
    expect((await pk(`/messages/${list[0]?.uuid}`)).status).toBe(403);
  });

  it("a cancel tells the customer and cancels the reminders still to go out", async () => {
    const res = await book(salon, { reserved_on: at("09:00", nextMonday()), ...someone() });
    const canceled = await salon.ws.api(`/bookings/${res.body.uuid}/status/cancel`, {
      method: "PUT",
      body: {},
    });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    const list = await messagesOf(salon, `booking_uuid=${res.body.uuid}`);
    expect(list.map((m) => [m.kind, m.status])).toEqual([
      ["booking-confirmation", "scheduled"],
      ["booking-reminder", "canceled"],
      ["booking-canceled", "scheduled"],
    ]);
    expect(
      (await messagesOf(salon, `booking_uuid=${res.body.uuid}&status=canceled`)).map((m) => m.kind),
    ).toEqual(["booking-reminder"]);
  });

  it("a write that fails writes no message (the booking and its messages are one batch)", async () => {
    const s = await createSalon(1);
    const who = someone();
    failpoints.arm("d1.batch.lost", (sql) => sql.includes('insert into "messages"'));
    const res = await s.ws.api("/bookings", {
      method: "POST",
      body: {
        location_uuid: s.location.uuid,
        service_uuid: s.cut.uuid,
        reserved_on: at("09:00", nextMonday()),
        ...who,
      },
    });
    expect(res.status).not.toBe(201);
    expect(await messagesOf(s, "")).toEqual([]);
    expect((await s.ws.api("/bookings")).body.data).toEqual([]);
  });
});

describe("notification settings", () => {
  it("shows the defaults, saves at the bounds, refuses past them with field paths", async () => {
    const s = await createSalon(1);
    const path = `/workspaces/${s.ws.id}/notification-settings`;
    const got = await admin(path);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      email: { enabled: true, from_name: "", from_email: "" },
      sms: { enabled: false },
      reminders: [{ channel: "email", minutes_before: 1440 }],
      waitlist_offer_minutes: 30,
      // SMS only to the workspace's own country, and a day's budget of messages strangers cause.
      sms_countries: ["DE"],
      public_message_budget: 500,
      templates: {},
    });
    // A waitlist offer holds 1 minute to a day: the bounds are saved, one past them refused.
    for (const minutes of [1, 1440]) {
      const saved = await settingsOf(s, { ...DEFAULTS, waitlist_offer_minutes: minutes });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      expect(saved.body.waitlist_offer_minutes).toBe(minutes);
    }
    for (const bad of [0, 1441, 2.5]) {
      const res = await settingsOf(s, { ...DEFAULTS, waitlist_offer_minutes: bad });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["waitlist_offer_minutes"]);
    }
    const r = (minutes_before: number) => ({ channel: "email", minutes_before });
    expect((await settingsOf(s, { ...DEFAULTS, reminders: [r(1), r(20_160), r(60)] })).status).toBe(
      200,
    );
    const four = await settingsOf(s, { ...DEFAULTS, reminders: [r(1), r(2), r(3), r(4)] });
    expect(four.status).toBe(422);
    expect(Object.keys(four.body.errors)).toEqual(["reminders"]);
    for (const bad of [0, 20_161]) {
      const res = await settingsOf(s, { ...DEFAULTS, reminders: [r(bad)] });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["reminders.0.minutes_before"]);
    }
    const unknown = await settingsOf(s, {
      ...DEFAULTS,
      templates: { "booking-reminder": { de: { body: "Hallo {{customer.constructor}}" } } },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe("validation_failed");
    expect(Object.keys(unknown.body.errors)).toEqual(["templates.booking-reminder.de.body"]);
    expect((await settingsOf(s, { ...DEFAULTS, templates: { "booking-lunch": {} } })).status).toBe(
      422,
    );
    // Still as last saved.
    expect((await admin(path)).body.reminders).toHaveLength(3);
    expect(
      (await admin(`/workspaces/00000000-0000-4000-8000-000000000000/notification-settings`))
        .status,
    ).toBe(404);
  });

  it("a workspace template is what the customer gets", async () => {
    const s = await createSalon(1);
    const saved = await settingsOf(s, {
      ...DEFAULTS,
      templates: {
        "booking-confirmation": {
          en: {
            subject: "See you, {{customer_first_name}}",
            body: "{{service_names}} at {{time}}",
          },
        },
      },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const res = await book(s, { reserved_on: at("09:00", nextMonday()), ...someone() });
    const [confirmation] = await messagesOf(
      s,
      `booking_uuid=${res.body.uuid}&kind=booking-confirmation`,
    );
    expect(confirmation).toMatchObject({ subject: "See you, Anna", body: "Haircut at 11:00 AM" });
  });
});

describe("tenancy", () => {
  it("another workspace's messages are invisible", async () => {
    const res = await book(salon, { reserved_on: at("09:00", nextMonday()), ...someone() });
    const [mine] = await messagesOf(salon, `booking_uuid=${res.body.uuid}`);
    const other = await createWorkspace();
    expect((await other.api(`/messages/${mine?.uuid}`)).status).toBe(404);
    expect((await other.api(`/messages?booking_uuid=${res.body.uuid}`)).body.data).toEqual([]);
    expect(
      (
        await other.api(`/customers/${res.body.customer_uuid}`, {
          method: "PATCH",
          body: { notifications: { email: false } },
        })
      ).status,
    ).toBe(404);
  });

  it("refuses bad filters with 422", async () => {
    expect((await salon.ws.api("/messages?kind=nope")).status).toBe(422);
    expect((await salon.ws.api("/messages?booking_uuid=x")).status).toBe(422);
  });
});
