import { afterEach, describe, expect, it, vi } from "vitest";
import { admin, type Client } from "../helpers/http";
import { createPublishableKey } from "../helpers/keys";
import { bookFor, fromAddress } from "../helpers/messages";
import { at, createSalon, type Salon } from "../helpers/salon";
import { everyShard } from "../helpers/every-shard";

/**
 * The per-recipient bound on messages strangers cause is "a day" as the
 * recipient lives it: the day a message goes out. A reminder is written when
 * its booking is made (or moved) but goes out days later, so a stranger who
 * books (or moves bookings) on several days for one day's visits must not
 * pile those days' reminders onto one inbox's day. Only the Worker's clock is
 * moved (`Date`); timers and I/O stay real.
 */

const PER_RECIPIENT = 10;
const VICTIM = "victim@example.org";
/** Reminders 24 h, 25 h and 26 h before: a visit's three fall on one UTC day. */
const SETTINGS = {
  email: { enabled: true, from_name: "Salon", from_email: "hello@salon.example" },
  sms: { enabled: false },
  reminders: [
    { channel: "email", minutes_before: 1440 },
    { channel: "email", minutes_before: 1500 },
    { channel: "email", minutes_before: 1560 },
  ],
  templates: {},
};

let slash64s = 0;
const newSlash64 = () => `2a02:8100:5678:${(++slash64s).toString(16)}::1`;
let phones = 0;
const newPhone = () => `+49151${String(70_000_000 + ++phones)}`;

const clockAt = (iso: string) => vi.setSystemTime(new Date(iso));

async function reminderSalon(): Promise<{ salon: Salon; pk: Client }> {
  const salon = await createSalon(3);
  const { api: pk } = await createPublishableKey(salon.ws);
  const saved = await admin(`/workspaces/${salon.ws.id}/notification-settings`, {
    method: "PUT",
    body: SETTINGS,
  });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return { salon, pk };
}

/** A stranger's booking for the victim's inbox from an address of its own (a new phone each time). */
async function bookForVictim(salon: Salon, pk: Client, start: string, staffer: number) {
  const me = fromAddress(pk, newSlash64());
  const made = await bookFor(
    salon,
    me,
    start,
    { customer_phone: newPhone(), customer_first_name: "Victim", customer_email: VICTIM },
    staffer,
  );
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return { uuid: made.body.uuid as string, me };
}

/** The victim's messages that are to go out (or went out) on the UTC day `date`. */
const toldOn = async (workspaceId: string, date: string) => {
  const from = Date.parse(`${date}T00:00:00Z`);
  const rows = await everyShard
    .prepare(
      `select kind, status from messages where workspace_id = ? and "to" = ?
       and scheduled_for >= ? and scheduled_for < ? and status in ('scheduled', 'sent')`,
    )
    .bind(workspaceId, VICTIM, from, from + 86_400_000)
    .all<{ kind: string; status: string }>();
  return rows.results;
};

afterEach(() => {
  vi.useRealTimers();
});

describe("a recipient's day is the day its messages go out", () => {
  it("bookings made on two days for one day's visits: the inbox's reminders of that day stay within 10", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    clockAt("2032-02-02T08:00:00Z");
    const { salon, pk } = await reminderSalon();
    // Visits on Tuesday 10 February: every reminder falls on Monday the 9th (UTC).
    const visitDay = "2032-02-10";
    for (const [i, hhmm] of ["09:00", "10:00", "11:00"].entries())
      await bookForVictim(salon, pk, at(hhmm, visitDay), i);
    clockAt("2032-02-03T08:00:00Z");
    for (const [i, hhmm] of ["13:00", "14:00", "15:00"].entries())
      await bookForVictim(salon, pk, at(hhmm, visitDay), i);
    const reminders = await toldOn(salon.ws.id, "2032-02-09");
    expect(reminders.every((r) => r.kind === "booking-reminder")).toBe(true);
    expect(reminders.length).toBeLessThanOrEqual(PER_RECIPIENT);
  }, 120_000);

  it("bookings on four days moved by their stranger onto one day: the inbox's reminders of that day stay within 10", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    clockAt("2032-02-02T08:00:00Z");
    const { salon, pk } = await reminderSalon();
    // Tuesday to Friday: three reminders on each day before, 3 a day, well within the bound.
    const made = [];
    for (const [i, day] of ["2032-02-10", "2032-02-11", "2032-02-12", "2032-02-13"].entries())
      made.push(await bookForVictim(salon, pk, at("10:00", day), i % 3));
    clockAt("2032-02-03T08:00:00Z");
    // The next day, the last three are moved onto Tuesday: their reminders follow to Monday.
    for (const [i, booking] of made.slice(1).entries()) {
      const moved = await booking.me(`/bookings/${booking.uuid}/reschedule`, {
        method: "PUT",
        body: { reserved_on: at(["13:00", "14:00", "15:00"][i] ?? "16:00", "2032-02-10") },
      });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }
    const reminders = await toldOn(salon.ws.id, "2032-02-09");
    expect(reminders.every((r) => r.kind === "booking-reminder")).toBe(true);
    expect(reminders.length).toBeLessThanOrEqual(PER_RECIPIENT);
  }, 120_000);

  it("a stranger's booked-then-canceled visits do not use up the day of the inbox's own reminders", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    clockAt("2032-02-02T08:00:00Z");
    const { salon, pk } = await reminderSalon();
    const visitDay = "2032-02-10";
    // Two days of book-then-cancel for Tuesday: each round's three reminders fall on Monday
    // and are canceled with their booking before they ever go out.
    for (const day of ["2032-02-02", "2032-02-03"]) {
      clockAt(`${day}T08:00:00Z`);
      for (let round = 0; round < 2; round++) {
        const { uuid, me } = await bookForVictim(salon, pk, at("09:00", visitDay), 0);
        const gone = await me(`/bookings/${uuid}/status/cancel`, { method: "PUT", body: {} });
        expect(gone.status, JSON.stringify(gone.body)).toBe(200);
      }
    }
    // The inbox's owner books Tuesday through the widget: all three of its reminders go out.
    clockAt("2032-02-04T08:00:00Z");
    await bookForVictim(salon, pk, at("11:00", visitDay), 1);
    const reminders = await toldOn(salon.ws.id, "2032-02-09");
    expect(reminders.filter((r) => r.status === "scheduled")).toHaveLength(3);
  }, 120_000);
});
