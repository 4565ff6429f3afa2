import { describe, expect, it } from "vitest";
import type { Client } from "../../widget/api";
import { faceOf, LOOK_AHEAD_MONTHS, openMonth, searchMonth } from "../../widget/flow";
import {
  addMonths,
  daysOf,
  firstFreeDay,
  freeDaysOfCart,
  freeDaysOfSlots,
  monthWeeks,
  moveIndex,
} from "../../widget/month";
import { choiceTotals, sentTo } from "../../widget/summary";
import { dayRange, formatClock } from "../../widget/time";
import type { Service, TimeSlots } from "../../widget/types";

/** A client that records what the widget asks and answers each GET from `answer`. */
function recording(answer: (path: string) => unknown) {
  const asked: string[] = [];
  const client: Client = {
    get: <T>(path: string) => {
      asked.push(path);
      return Promise.resolve(answer(path) as T);
    },
    post: <T>(path: string) => {
      asked.push(path);
      return Promise.resolve(answer(path) as T);
    },
    del: () => Promise.resolve(),
  };
  return { client, asked };
}

const slots = (dates: Record<string, string[]>): TimeSlots => ({
  timezone: "UTC",
  dates: Object.entries(dates).map(([date, starts]) => ({
    date,
    slots: starts.map((start) => ({ start, price_formatted: "" })),
  })),
});

const sel = { location: "l", services: ["cut"], staffer: "", zone: "UTC" };

describe("the date step's month", () => {
  it("lays a month out in weeks from the locale's first weekday, blanks before and after", () => {
    // 1 December 2026 is a Tuesday.
    const monday = monthWeeks("2026-12", 1);
    expect(monday[0]).toEqual([
      null,
      "2026-12-01",
      "2026-12-02",
      "2026-12-03",
      "2026-12-04",
      "2026-12-05",
      "2026-12-06",
    ]);
    expect(monday.at(-1)).toEqual([
      "2026-12-28",
      "2026-12-29",
      "2026-12-30",
      "2026-12-31",
      null,
      null,
      null,
    ]);
    const sunday = monthWeeks("2026-12", 7);
    expect(sunday[0]?.slice(0, 3)).toEqual([null, null, "2026-12-01"]);
    // February 2027 starts on a Monday and fills exactly four weeks.
    expect(monthWeeks("2027-02", 1)).toHaveLength(4);
    expect(daysOf("2028-02")).toHaveLength(29);
    expect(addMonths("2026-12", 1)).toBe("2027-01");
    expect(addMonths("2027-01", -1)).toBe("2026-12");
  });

  it("marks the days with free time from one answer; a group's start only with seats for the party", () => {
    const res: TimeSlots = {
      timezone: "UTC",
      dates: [
        { date: "2030-03-04", slots: [{ start: "09:00", price_formatted: "", quantity: 2 }] },
        {
          date: "2030-03-05",
          slots: [
            { start: "09:00", price_formatted: "", quantity: 3 },
            { start: "10:00", price_formatted: "", quantity: 1 },
          ],
        },
        { date: "2030-03-06", slots: [] },
      ],
    };
    const forThree = freeDaysOfSlots(res, 3);
    expect([...forThree.keys()]).toEqual(["2030-03-05"]);
    expect(forThree.get("2030-03-05")).toHaveLength(1);
    expect([...freeDaysOfSlots(res, 1).keys()]).toEqual(["2030-03-04", "2030-03-05"]);
    const cart = freeDaysOfCart({
      data: [{ dates: [{ date: "2030-03-07", slot: { start: "11:30", price_formatted: "" } }] }],
    });
    expect([...cart.keys()]).toEqual(["2030-03-07"]);
    expect(cart.get("2030-03-07")).toHaveLength(1);
    expect(firstFreeDay(forThree, "2030-03-06")).toBeNull();
  });

  it("asks once for the whole month, from today on", async () => {
    const { client, asked } = recording(() => slots({ "2030-03-20": ["09:00"] }));
    const days = await searchMonth(client, sel, "2030-03", "2030-03-15");
    expect(asked).toHaveLength(1);
    const q = new URL(`http://x${asked[0]}`).searchParams;
    expect(q.get("range_start")).toBe(dayRange("2030-03-15").start);
    expect(q.get("range_end")).toBe(dayRange("2030-03-31").end);
    expect(q.get("service_uuid")).toBe("cut");
    expect(q.has("staffer_uuid")).toBe(false);
    expect([...days.keys()]).toEqual(["2030-03-20"]);
  });

  it("opens on the first month with a free day, at most LOOK_AHEAD_MONTHS months ahead", async () => {
    const free = recording((path) =>
      new URL(`http://x${path}`).searchParams.get("range_start") === dayRange("2030-05-01").start
        ? slots({ "2030-05-02": ["10:00"] })
        : slots({}),
    );
    expect(await openMonth(free.client, sel, "2030-03-30")).toMatchObject({
      month: "2030-05",
      day: "2030-05-02",
    });
    expect(free.asked).toHaveLength(3);

    const none = recording(() => slots({}));
    const opened = await openMonth(none.client, sel, "2030-03-30");
    expect(opened).toMatchObject({ month: "2030-03", day: null });
    expect(none.asked).toHaveLength(LOOK_AHEAD_MONTHS);
  });
});

describe("roving focus in a grid", () => {
  it("steps, rows and ends, staying inside", () => {
    // 10 items, 4 a row: 0-3, 4-7, 8-9.
    expect(moveIndex("ArrowRight", 3, 10, 4)).toBe(4);
    expect(moveIndex("ArrowRight", 9, 10, 4)).toBe(9);
    expect(moveIndex("ArrowLeft", 0, 10, 4)).toBe(0);
    expect(moveIndex("ArrowDown", 5, 10, 4)).toBe(9);
    expect(moveIndex("ArrowDown", 7, 10, 4)).toBe(7);
    expect(moveIndex("ArrowUp", 5, 10, 4)).toBe(1);
    expect(moveIndex("ArrowUp", 2, 10, 4)).toBe(2);
    expect(moveIndex("Home", 6, 10, 4)).toBe(0);
    expect(moveIndex("End", 1, 10, 4)).toBe(9);
    expect(moveIndex("Home", 6, 10, 4, "row")).toBe(4);
    expect(moveIndex("End", 8, 10, 4, "row")).toBe(9);
    expect(moveIndex("Tab", 2, 10, 4)).toBeNull();
    expect(moveIndex("End", 0, 0, 4)).toBeNull();
  });
});

describe("times in the customer's locale's own style", () => {
  it("writes English with AM/PM unpadded and German on the 24-hour clock", () => {
    const nine = "2030-03-04T09:05:00Z";
    expect(formatClock(nine, "en-US", "UTC")).toBe("9:05 AM");
    expect(formatClock("2030-03-04T17:15:00Z", "en-US", "UTC")).toBe("5:15 PM");
    expect(formatClock(nine, "de", "UTC")).toMatch(/^0?9:05$/);
    expect(formatClock("2030-03-04T17:15:00Z", "fr", "UTC")).toBe("17:15");
  });
});

const service = (over: Partial<Service>): Service => ({
  uuid: "s",
  name: "Cut",
  price_formatted: "",
  discount: 3500,
  discount_formatted: "",
  price: 3500,
  currency: "EUR",
  duration: { value: 45, label: "" },
  is_duration_hidden: false,
  is_price_hidden: false,
  starting_at: false,
  live: true,
  live_in_widget: true,
  locations: [],
  staffers: [],
  ...over,
});

describe("the summary and the confirmation", () => {
  it("sums duration and price (per seat), and says what is due now", () => {
    const from = (p: string) => `from ${p}`;
    const yoga = service({ uuid: "y", duration: { value: 60, label: "" }, discount: 1000 });
    expect(choiceTotals([service({}), yoga], { y: 3 }, null, "en-US", from)).toEqual({
      duration: "1 hr 45 min",
      price: "€65.00",
      dueNow: null,
    });
    const hidden = choiceTotals(
      [service({ is_price_hidden: true, starting_at: true })],
      {},
      {
        mode: "deposit",
        amount_due_now: 1200,
        currency: "EUR",
        late_cancel: null,
        no_show_fee: null,
      },
      "en-US",
      from,
    );
    expect(hidden).toMatchObject({ price: null, dueNow: "€12.00" });
    expect(choiceTotals([service({ starting_at: true })], {}, null, "en-US", from).price).toBe(
      "from €35.00",
    );
  });

  it("lists each address a confirmation went to once, nothing from an older API", () => {
    const booking = { uuid: "b", start_time: "", end_time: "", links: [] };
    const mail = { channel: "email" as const, to: "ada@example.com" };
    expect(
      sentTo([
        { ...booking, confirmation_sent_to: [mail] },
        { ...booking, confirmation_sent_to: [mail, { channel: "sms", to: "+4915123456789" }] },
      ]),
    ).toEqual([mail, { channel: "sms", to: "+4915123456789" }]);
    expect(sentTo([booking])).toEqual([]);
  });

  it("names the salon by its brand, else its location; without either it shows no face", () => {
    const location = { uuid: "l", name: "Mitte" };
    expect(faceOf(null, location)).toMatchObject({ name: "Mitte", address: null, phone: null });
    expect(
      faceOf(
        {
          name: "W",
          locale: "en",
          currency: "EUR",
          brand: { name: "Lumen", logo_url: null, accent_color: "#7a1fa2" },
        },
        location,
      ),
    ).toMatchObject({ name: "Lumen", accent_color: "#7a1fa2" });
    expect(faceOf(null, null)).toBeNull();
  });
});
