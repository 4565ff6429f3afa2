import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { admin, type Client, PUBLIC } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { bookFor, fromAddress, told, weekdays } from "../helpers/messages";
import { at, createSalon, type Salon } from "../helpers/salon";
import { cancel, fullDay, mondayIn, offered, offerMessages } from "../helpers/waitlist";
import { everyShard } from "../helpers/every-shard";

/**
 * A stranger with the widget's key, rotating client addresses, must not make
 * a salon pump messages: one phone or inbox gets at most 10 messages a day
 * that publishable-key or keyless requests caused, the workspace has a daily
 * budget of them (one `quota-reached` event when it is used up), and SMS go
 * only to the countries the workspace serves. The salon's own (secret-key)
 * messages are bounded by none of these.
 */

const PER_RECIPIENT = 10;

/** A weekday of its own per call, from Monday 2032-01-05. */
const nextDay = weekdays(Date.UTC(2032, 0, 5));

/** A /64 of its own per call, all in one routed /48 (65,536 of them). */
let slash64s = 0;
const newSlash64 = () => `2a02:8100:1234:${(++slash64s).toString(16)}::1`;

let phones = 0;
const newPhone = () => `+49151${String(60_000_000 + ++phones)}`;

interface Row {
  channel: string;
  kind: string;
  status: string;
  skip_reason: string | null;
  body: string;
  scheduled_for: number;
}

/** How many of the rows go out (or went) on each UTC day, by day. */
const toldPerDay = (rows: { status: string; scheduled_for: number }[]) => {
  const days = new Map<number, number>();
  for (const r of rows) {
    if (!told(r)) continue;
    const day = Math.floor(r.scheduled_for / 86_400_000);
    days.set(day, (days.get(day) ?? 0) + 1);
  }
  return [...days.entries()].sort(([a], [b]) => a - b).map(([, n]) => n);
};

const rowsTo = async (workspaceId: string, to: string) =>
  (
    await everyShard
      .prepare(
        `select channel, kind, status, skip_reason, body, scheduled_for from messages
       where workspace_id = ? and "to" = ? order by created_at, kind, channel`,
      )
      .bind(workspaceId, to)
      .all<Row>()
  ).results;

const rowsOfBooking = async (bookingId: string) =>
  (
    await everyShard
      .prepare(
        `select channel, kind, status, skip_reason, body from messages
       where booking_id = ? order by created_at, kind, channel`,
      )
      .bind(bookingId)
      .all<Row>()
  ).results;

const quotaEvents = async (workspaceId: string) =>
  (
    await everyShard
      .prepare(`select payload from events where workspace_id = ? and type = 'quota-reached'`)
      .bind(workspaceId)
      .all<{ payload: string }>()
  ).results.map((r) => JSON.parse(r.payload) as Record<string, unknown>);

const BASE_SETTINGS = {
  email: { enabled: true, from_name: "Salon", from_email: "hello@salon.example" },
  sms: { enabled: true },
  reminders: [{ channel: "email", minutes_before: 1440 }],
  templates: {},
};

const saveSettings = (salon: Salon, extra: Record<string, unknown> = {}) =>
  admin(`/workspaces/${salon.ws.id}/notification-settings`, {
    method: "PUT",
    body: { ...BASE_SETTINGS, ...extra },
  });

async function messagingSalon(extra: Record<string, unknown> = {}) {
  const salon = await createSalon(3);
  const pk = await createPublishableKey(salon.ws);
  const saved = await saveSettings(salon, extra);
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { salon, pk };
}

describe("messages to one recipient a day, whoever asks", () => {
  let salon: Salon;
  let pk: Client;
  beforeAll(async () => {
    ({
      salon,
      pk: { api: pk },
    } = await messagingSalon());
  });

  it("book-then-cancel from 50 rotating /64s to one phone: 10 SMS and 10 e-mails go out, the rest are skipped (recipient_quota)", async () => {
    const phone = newPhone();
    const victim = {
      customer_phone: phone,
      customer_first_name: "Victim",
      customer_email: "victim@example.org",
    };
    const day = nextDay();
    const ROTATIONS = 50;
    for (let i = 0; i < ROTATIONS; i++) {
      const me = fromAddress(pk, newSlash64());
      // Book then cancel frees the time again: every address books the same start.
      const made = await bookFor(salon, me, at("09:00", day), victim);
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const gone = await me(`/bookings/${made.body.uuid}/status/cancel`, {
        method: "PUT",
        body: {},
      });
      expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    }
    const sms = await rowsTo(salon.ws.id, phone);
    // Two SMS a round (confirmation, cancel): 100 written, 10 to go out.
    expect(sms).toHaveLength(2 * ROTATIONS);
    expect(sms.filter(told)).toHaveLength(PER_RECIPIENT);
    expect(sms.slice(0, PER_RECIPIENT).every(told)).toBe(true);
    expect(new Set(sms.slice(PER_RECIPIENT).map((r) => `${r.status}:${r.skip_reason}`))).toEqual(
      new Set(["skipped:recipient_quota"]),
    );
    // The inbox: confirmation, reminder and cancel a round. Today 10 of the confirmations and
    // cancels go out; every reminder was canceled with its booking before its day (and so gave
    // its count back), none goes out.
    const mail = await rowsTo(salon.ws.id, "victim@example.org");
    expect(toldPerDay(mail)).toEqual([PER_RECIPIENT]);
    expect(mail.filter((r) => r.kind === "booking-reminder").every((r) => !told(r))).toBe(true);
    expect(
      mail.filter((r) => r.status === "skipped").every((r) => r.skip_reason === "recipient_quota"),
    ).toBe(true);
    // The GET shows the reason.
    const listed = await salon.ws.api(`/messages?per_page=100&status=skipped&channel=sms`);
    expect(listed.status).toBe(200);
    expect(
      (listed.body.data as { to: string; skip_reason: string }[])
        .filter((m) => m.to === phone)
        .every((m) => m.skip_reason === "recipient_quota"),
    ).toBe(true);
  }, 120_000);

  it("15 bookings for one phone fired at once from 15 /64s: exactly 10 SMS go out", async () => {
    const { salon: own, pk: key } = await messagingSalon({
      reminders: [],
      email: { ...BASE_SETTINGS.email, enabled: false },
    });
    const phone = newPhone();
    const day = nextDay();
    const burst = await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        bookFor(
          own,
          fromAddress(key.api, newSlash64()),
          at(`${String(9 + (i % 5)).padStart(2, "0")}:00`, day),
          { customer_phone: phone, customer_first_name: "Burst" },
          Math.floor(i / 5),
        ),
      ),
    );
    for (const made of burst) expect(made.status, JSON.stringify(made.body)).toBe(201);
    const sms = await rowsTo(own.ws.id, phone);
    expect(sms).toHaveLength(15);
    expect(sms.filter(told)).toHaveLength(PER_RECIPIENT);
    expect(sms.filter((r) => !told(r)).map((r) => r.skip_reason)).toEqual(
      Array(15 - PER_RECIPIENT).fill("recipient_quota"),
    );
  });

  it("one inbox spelt many ways is one recipient (case, +tags)", async () => {
    const day = nextDay();
    const spellings = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0 ? `Spelt+${i}@Example.org` : `spelt+x${i}@example.ORG`,
    );
    for (const [i, email] of spellings.entries()) {
      const me = fromAddress(pk, newSlash64());
      const made = await bookFor(
        salon,
        me,
        at(`${String(9 + (i % 8)).padStart(2, "0")}:00`, day),
        {
          customer_phone: newPhone(),
          customer_first_name: "Spelt",
          customer_email: email,
        },
        Math.floor(i / 8),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    const mail = (
      await everyShard
        .prepare(
          `select status, skip_reason, scheduled_for from messages where workspace_id = ? and channel = 'email'
         and lower("to") like 'spelt+%@example.org' order by created_at`,
        )
        .bind(salon.ws.id)
        .all<{ status: string; skip_reason: string | null; scheduled_for: number }>()
    ).results;
    // Confirmation and reminder a booking: 24 written; 10 go out on each day they fall on
    // (the confirmations today, the reminders the day before the visits).
    expect(mail).toHaveLength(24);
    expect(toldPerDay(mail)).toEqual([PER_RECIPIENT, PER_RECIPIENT]);
  });

  it("the salon's own (secret-key) messages are neither bounded nor counted", async () => {
    const phone = newPhone();
    const who = { customer_phone: phone, customer_first_name: "Regular" };
    const day = nextDay();
    for (let i = 0; i < 12; i++) {
      const made = await bookFor(
        salon,
        salon.ws.api,
        at(`${String(9 + (i % 6)).padStart(2, "0")}:00`, day),
        who,
        Math.floor(i / 6),
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    }
    expect((await rowsTo(salon.ws.id, phone)).filter(told)).toHaveLength(12);
    // A stranger's booking for the same phone is told: staff's twelve did not count.
    const made = await bookFor(salon, fromAddress(pk, newSlash64()), at("15:00", day), who, 2);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const sms = (await rowsOfBooking(made.body.uuid)).filter((r) => r.channel === "sms");
    expect(sms.map((r) => told(r))).toEqual([true]);
  });
});

describe("the workspace's daily budget of messages strangers cause", () => {
  it("past public_message_budget messages are skipped (workspace_quota) and one quota-reached event is written, however many race", async () => {
    // E-mail only, no reminders: one message a booking.
    const { salon, pk } = await messagingSalon({
      sms: { enabled: false },
      reminders: [],
      public_message_budget: 4,
    });
    const day = nextDay();
    const burst = await Promise.all(
      Array.from({ length: 9 }, (_, i) =>
        bookFor(
          salon,
          fromAddress(pk.api, newSlash64()),
          at(`${String(9 + (i % 3)).padStart(2, "0")}:00`, day),
          {
            customer_phone: newPhone(),
            customer_first_name: "Budget",
            customer_email: `budget${i}@example.org`,
          },
          Math.floor(i / 3),
        ),
      ),
    );
    for (const made of burst) expect(made.status, JSON.stringify(made.body)).toBe(201);
    const rows = (
      await Promise.all(burst.map((made) => rowsOfBooking(made.body.uuid as string)))
    ).flat();
    expect(rows).toHaveLength(9);
    expect(rows.filter(told)).toHaveLength(4);
    expect(rows.filter((r) => !told(r)).map((r) => r.skip_reason)).toEqual(
      Array(5).fill("workspace_quota"),
    );
    // Told once, with what was reached.
    const events = await quotaEvents(salon.ws.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ quota: "public_message_budget", budget: 4, used: 4 });
    // More strangers later that day: still skipped, no second event.
    const later = await bookFor(salon, fromAddress(pk.api, newSlash64()), at("14:00", day), {
      customer_phone: newPhone(),
      customer_first_name: "Budget",
      customer_email: "budget-late@example.org",
    });
    expect(later.status).toBe(201);
    expect((await rowsOfBooking(later.body.uuid)).map((r) => r.skip_reason)).toEqual([
      "workspace_quota",
    ]);
    expect(await quotaEvents(salon.ws.id)).toHaveLength(1);
    // The salon's own booking still tells its customer.
    const own = await bookFor(salon, salon.ws.api, at("15:00", day), {
      customer_phone: newPhone(),
      customer_first_name: "Own",
      customer_email: "own@example.org",
    });
    expect(own.status).toBe(201);
    expect((await rowsOfBooking(own.body.uuid)).map((r) => told(r))).toEqual([true]);
  });

  it("a webhook may subscribe to quota-reached", async () => {
    const salon = await createSalon(1);
    const res = await salon.ws.api("/webhooks", {
      method: "POST",
      body: { url: "http://127.0.0.1:9/hook", events: ["quota-reached"] },
    });
    expect([200, 201]).toContain(res.status);
  });

  it("settings: sms_countries and public_message_budget are validated at their bounds", async () => {
    const salon = await createSalon(1);
    const put = (extra: Record<string, unknown>) => saveSettings(salon, extra);
    for (const budget of [0, 10_000]) {
      const ok = await put({ public_message_budget: budget });
      expect(ok.status, JSON.stringify(ok.body)).toBe(200);
      expect(ok.body.public_message_budget).toBe(budget);
    }
    for (const bad of [-1, 10_001, 2.5, "500"]) {
      const res = await put({ public_message_budget: bad });
      expect(res.status).toBe(422);
      expect(Object.keys(res.body.errors)).toEqual(["public_message_budget"]);
    }
    const lower = await put({ sms_countries: ["de", "at"] });
    expect(lower.status).toBe(200);
    expect(lower.body.sms_countries).toEqual(["DE", "AT"]);
    const thirty = [
      "DE",
      "AT",
      "CH",
      "FR",
      "IT",
      "ES",
      "PT",
      "NL",
      "BE",
      "LU",
      "DK",
      "SE",
      "NO",
      "FI",
      "PL",
      "CZ",
      "SK",
      "HU",
      "SI",
      "HR",
      "IE",
      "GB",
      "US",
      "CA",
      "AU",
      "NZ",
      "JP",
      "GR",
      "RO",
      "BG",
    ];
    expect((await put({ sms_countries: thirty })).status).toBe(200);
    for (const bad of [[], [...thirty, "EE"], ["XX"], ["DEU"], ["DE", "de"], "DE"]) {
      const res = await put({ sms_countries: bad });
      expect(res.status, JSON.stringify(bad)).toBe(422);
      expect(Object.keys(res.body.errors)[0]).toMatch(/^sms_countries/);
    }
    // Omitted: the workspace's own country.
    const omitted = await put({});
    expect(omitted.body.sms_countries).toEqual(["DE"]);
    expect((await admin(`/workspaces/${salon.ws.id}/notification-settings`)).body).toMatchObject({
      sms_countries: ["DE"],
      public_message_budget: 500,
    });
  });
});

describe("SMS only to the countries the workspace serves", () => {
  it("a booking with a phone elsewhere books; its SMS is skipped (sms_country), its e-mail told", async () => {
    const { salon, pk } = await messagingSalon({ reminders: [] });
    const day = nextDay();
    const french = {
      customer_phone: "+33 6 12 34 56 78",
      customer_first_name: "Amélie",
      customer_email: "amelie@example.fr",
    };
    const made = await bookFor(salon, fromAddress(pk.api, newSlash64()), at("09:00", day), french);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    expect(
      (await rowsOfBooking(made.body.uuid)).map((r) => [r.channel, r.status, r.skip_reason]),
    ).toEqual([
      ["email", "scheduled", null],
      ["sms", "skipped", "sms_country"],
    ]);
    // Once the salon serves France, the next one's SMS goes out.
    expect((await saveSettings(salon, { reminders: [], sms_countries: ["DE", "FR"] })).status).toBe(
      200,
    );
    const again = await bookFor(salon, fromAddress(pk.api, newSlash64()), at("10:00", day), french);
    expect(again.status).toBe(201);
    expect((await rowsOfBooking(again.body.uuid)).map((r) => told(r))).toEqual([true, true]);
  });
});

describe("what a stranger's message carries", () => {
  it("links are built on the configured public origin, not on a forged Host", async () => {
    const { salon, pk } = await messagingSalon({ sms: { enabled: false }, reminders: [] });
    const response = await exports.default.fetch(
      new Request(`http://evil.example${PUBLIC}/bookings`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${pk.key}`,
          workspace: salon.ws.id,
          host: "evil.example",
          "x-forwarded-host": "evil.example",
          "cf-connecting-ip": newSlash64(),
          "content-type": "application/json",
        },
        body: JSON.stringify({
          location_uuid: salon.location.uuid,
          service_uuid: salon.cut.uuid,
          staffer_uuid: salon.staffers[0]?.uuid,
          reserved_on: at("09:00", nextDay()),
          customer_phone: newPhone(),
          customer_first_name: "Ada",
          customer_email: "ada@example.org",
        }),
      }),
    );
    const made = (await response.json()) as { uuid: string };
    expect(response.status, JSON.stringify(made)).toBe(201);
    const [mail] = await rowsOfBooking(made.uuid);
    expect(mail?.body).toContain("http://api.test/widget/manage?token=");
    expect(mail?.body).toContain("http://api.test/api/public/v2/bookings/");
    expect(mail?.body).not.toContain("evil.example");
  });

  it("a first name that reads as a link is left out of the greeting; a plain one is kept", async () => {
    const { salon, pk } = await messagingSalon({ sms: { enabled: false }, reminders: [] });
    const day = nextDay();
    const greetingOf = async (name: string, hhmm: string, staffer: number) => {
      const made = await bookFor(
        salon,
        fromAddress(pk.api, newSlash64()),
        at(hhmm, day),
        {
          customer_phone: newPhone(),
          customer_first_name: name,
          customer_email: `n${hhmm.replace(":", "")}${staffer}@example.org`,
        },
        staffer,
      );
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      const [mail] = await rowsOfBooking(made.body.uuid);
      return mail?.body.split("\n")[0];
    };
    expect(await greetingOf("Ada", "09:00", 0)).toBe("Hello Ada,");
    expect(await greetingOf("Anne-Marie", "10:00", 0)).toBe("Hello Anne-Marie,");
    const links = [
      "evil.example",
      "bit.ly/x",
      "http://x",
      "xn--80ak6aa92e",
      "evil．example",
      "a@b",
    ];
    for (const [i, name] of links.entries())
      expect(await greetingOf(name, `${String(9 + i).padStart(2, "0")}:00`, 1), name).toBe(
        "Hello,",
      );
    // A 100-character name (the field's bound) is not carried either.
    expect(await greetingOf("A".repeat(100), "11:00", 0)).toBe("Hello,");
  });

  it("a publishable waitlist join sent to a forged Host with a link for a name: its offer links to the public origin and greets without the name", async () => {
    const { salon, pk } = await messagingSalon({ sms: { enabled: false }, reminders: [] });
    const date = mondayIn(3);
    const booking = await fullDay(salon, date);
    const response = await exports.default.fetch(
      new Request(`http://evil.example${PUBLIC}/waitlist`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${pk.key}`,
          workspace: salon.ws.id,
          host: "evil.example",
          "cf-connecting-ip": newSlash64(),
          "content-type": "application/json",
        },
        body: JSON.stringify({
          location_uuid: salon.location.uuid,
          services: [{ service_uuid: salon.cut.uuid }],
          customer_phone: newPhone(),
          customer_first_name: "evil.example",
          customer_email: "waiting@example.org",
          from: date,
          to: date,
        }),
      }),
    );
    const entry = (await response.json()) as { uuid: string };
    expect(response.status, JSON.stringify(entry)).toBe(201);
    await cancel(salon, booking);
    await offered(salon, entry.uuid);
    const [mail] = await offerMessages(entry.uuid);
    expect(mail?.body.split("\n")[0]).toBe("Hello,");
    expect(mail?.body).toContain("http://api.test/widget/offer?token=");
    expect(mail?.body).not.toContain("evil.example");
  });
});
