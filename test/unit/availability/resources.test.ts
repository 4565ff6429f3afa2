import { describe, expect, it } from "vitest";
import {
  type BusyInterval,
  findCartStart,
  firstCartFitPerDay,
  freeUnits,
  localDateTimeToInstant,
  nearestStarts,
  nextCartFit,
  type ResourceInput,
  type StafferCalendarInput,
  searchSlots,
} from "../../../src/calendar/rules";

const berlin = { timezone: "Europe/Berlin", slotStepMin: 15, minNoticeMin: 0 };
const DATE = "2030-03-04";
const T = (hhmm: string, date = DATE) => localDateTimeToInstant(date, hhmm, "Europe/Berlin");
const staffer = (id: string, busy: BusyInterval[] = []): StafferCalendarInput => ({
  id,
  weekly: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, start: "09:00", end: "12:00" })),
  overrides: [],
  busy,
});
const booking = (from: string, to: string, kind: BusyInterval["kind"] = "booking") => ({
  start: T(from),
  end: T(to),
  kind,
});
const resource = (id: string, ...units: BusyInterval[][]): ResourceInput => ({
  id,
  units: units.map((busy, i) => ({ id: `${id}-unit-${i + 1}`, busy })),
});
const search = (over: Partial<Parameters<typeof searchSlots>[0]>) =>
  searchSlots({
    location: berlin,
    staffers: [staffer("a")],
    durationMin: 60,
    bufferMin: 0,
    fromDate: DATE,
    toDate: DATE,
    listStaffers: true as const,
    now: 0,
    ...over,
  })[0]?.slots ?? [];
const at = (slots: ReturnType<typeof search>, hhmm: string) =>
  slots.find((s) => s.start === T(hhmm));

describe("resources in the slot search", () => {
  it("a one-unit room held by a booking leaves no slot there, although another staffer is free", () => {
    // a's 10:00 booking holds the room; b is free all morning.
    const slots = search({
      staffers: [staffer("a", [booking("10:00", "11:00")]), staffer("b")],
      resources: [resource("room", [booking("10:00", "11:00")])],
    });
    expect(at(slots, "10:00")).toBeUndefined();
    expect(at(slots, "09:15")).toBeUndefined(); // [09:15, 10:15) would need the room at 10:00
    expect(at(slots, "09:00")).toMatchObject({ stafferIds: ["a", "b"], quantity: 1 });
    expect(at(slots, "11:00")).toMatchObject({ stafferIds: ["a", "b"], quantity: 1 });
    // Without the room, b alone is bookable at 10:00.
    expect(
      at(search({ staffers: [staffer("a", [booking("10:00", "11:00")]), staffer("b")] }), "10:00"),
    ).toMatchObject({ stafferIds: ["b"], quantity: 1 });
  });

  it("quantity is the smaller of the free staffers and the free units of each resource", () => {
    const staffers = [staffer("a"), staffer("b"), staffer("c")];
    const slots = search({ staffers, resources: [resource("room", [], [])] });
    expect(slots.every((s) => s.quantity === 2 && s.stafferIds?.length === 3)).toBe(true);
    // A second resource with one unit busy at 10:00 caps that start at 1.
    const two = search({
      staffers,
      resources: [resource("room", [], []), resource("basin", [], [booking("10:00", "10:30")])],
    });
    expect(at(two, "10:00")?.quantity).toBe(1);
    expect(at(two, "09:00")?.quantity).toBe(2);
    // More units than staffers: the staffers are the limit.
    expect(
      search({ staffers, resources: [resource("room", [], [], [], [])] }).every(
        (s) => s.quantity === 3,
      ),
    ).toBe(true);
  });

  it("a blocked room removes the slots that would overlap it, and intervals follow the listed slots", () => {
    const [day] = searchSlots({
      location: berlin,
      staffers: [staffer("a")],
      durationMin: 60,
      bufferMin: 0,
      fromDate: DATE,
      toDate: DATE,
      now: 0,
      resources: [resource("room", [booking("10:30", "11:00", "blocked")])],
    });
    expect(day?.slots.map((s) => s.start)).toEqual(
      ["09:00", "09:15", "09:30", "11:00"].map((t) => T(t)),
    );
    expect(day?.intervals).toEqual([
      { start: T("09:00"), end: T("10:30") },
      { start: T("11:00"), end: T("12:00") },
    ]);
  });

  it("the buffer keeps the unit busy too", () => {
    const room = [resource("room", [booking("11:00", "11:30")])];
    expect(at(search({ resources: room }), "10:00")).toBeDefined();
    expect(at(search({ resources: room, bufferMin: 15 }), "10:00")).toBeUndefined();
    expect(at(search({ resources: room, bufferMin: 15 }), "09:45")).toBeDefined();
  });

  it("a required resource that is missing or has no units gives no slots", () => {
    expect(search({ resources: [{ id: "room", units: [] }] })).toEqual([]);
    expect(search({ resources: [resource("room", [booking("00:00", "23:59")])] })).toEqual([]);
    // An empty list of required resources is the staffer-only search.
    expect(search({ resources: [] })).toEqual(search({}));
  });
});

describe("resources in carts and alternatives", () => {
  const service = (
    stafferIds: string[],
    resourceIds: string[],
    durationMin = 60,
    bufferMin = 0,
  ) => ({
    durationMin,
    bufferMin,
    stafferIds,
    resourceIds,
  });

  it("two services needing the same one-unit room back to back fit, one after the other", () => {
    const placed = findCartStart({
      location: berlin,
      staffers: [staffer("a"), staffer("b")],
      services: [service(["a"], ["room"], 45, 15), service(["b"], ["room"], 30)],
      resources: [resource("room", [])],
      start: T("09:00"),
      now: 0,
    });
    expect(placed).toEqual([
      { stafferId: "a", start: T("09:00"), end: T("09:45"), unitIds: ["room-unit-1"] },
      { stafferId: "b", start: T("10:00"), end: T("10:30"), unitIds: ["room-unit-1"] },
    ]);
  });

  it("services that would need a one-unit room at once cannot be placed; two units can", () => {
    // A fixed layout (a booking being moved) with both services at the same offset.
    const input = {
      location: berlin,
      staffers: [staffer("a"), staffer("b")],
      services: [service(["a"], ["room"]), service(["b"], ["room"])],
      offsetsMs: [0, 0],
      around: T("09:00"),
      now: 0,
      days: 0,
    };
    expect(nearestStarts({ ...input, resources: [resource("room", [])] })).toEqual([]);
    expect(nearestStarts({ ...input, resources: [resource("room", [], [])] })).toHaveLength(5);
    // One service needing the room twice is the same situation.
    const twice = (units: BusyInterval[][]) =>
      findCartStart({
        location: berlin,
        staffers: [staffer("a")],
        services: [service(["a"], ["room", "room"])],
        resources: [resource("room", ...units)],
        start: T("09:00"),
        now: 0,
      });
    expect(twice([[]])).toBeNull();
    expect(twice([[], []])?.[0]?.unitIds).toEqual(["room-unit-1", "room-unit-2"]);
  });

  it("takes unit 1, and unit 2 when unit 1 is busy (the buffer included)", () => {
    const place = (start: string, bufferMin = 0) =>
      findCartStart({
        location: berlin,
        staffers: [staffer("a")],
        services: [service(["a"], ["room"], 60, bufferMin)],
        resources: [resource("room", [booking("10:10", "10:45")], [])],
        start: T(start),
        now: 0,
      })?.[0]?.unitIds;
    expect(place("09:00")).toEqual(["room-unit-1"]);
    expect(place("09:00", 15)).toEqual(["room-unit-2"]);
    expect(place("10:00")).toEqual(["room-unit-2"]);
    expect(place("10:45")).toEqual(["room-unit-1"]);
  });

  it("a service naming a resource absent from the input cannot be placed", () => {
    const args = {
      location: berlin,
      staffers: [staffer("a")],
      services: [service(["a"], ["room"])],
      start: T("09:00"),
      now: 0,
    };
    expect(findCartStart(args)).toBeNull();
    expect(findCartStart({ ...args, resources: [resource("other", [])] })).toBeNull();
    expect(findCartStart({ ...args, resources: [resource("room", [])] })).not.toBeNull();
    // Services without resources are placed as before, with no units.
    expect(
      findCartStart({ ...args, services: [{ durationMin: 60, bufferMin: 0, stafferIds: ["a"] }] }),
    ).toEqual([{ stafferId: "a", start: T("09:00"), end: T("10:00"), unitIds: [] }]);
  });

  it("the first cart fit per day and the next fit wait for a free unit", () => {
    const args = {
      location: berlin,
      staffers: [staffer("a")],
      services: [service(["a"], ["room"])],
      resources: [resource("room", [booking("09:00", "10:30")])],
      now: T("08:00"),
    };
    const [day] = firstCartFitPerDay({ ...args, fromDate: DATE, toDate: DATE });
    expect(day).toMatchObject({ date: DATE, start: T("10:30") });
    expect(day?.assignments[0]?.unitIds).toEqual(["room-unit-1"]);
    expect(nextCartFit(args)?.start).toBe(T("10:30"));
  });

  it("alternatives for a single service honour the room", () => {
    const got = nearestStarts({
      location: berlin,
      staffers: [staffer("a")],
      services: [service(["a"], ["room"])],
      resources: [resource("room", [booking("09:00", "11:00")])],
      around: T("09:00"),
      now: 0,
      days: 0,
    });
    expect(got.map((g) => g.start)).toEqual([T("11:00")]);
  });

  it("freeUnits lists the units free over a span, in order", () => {
    const room = resource("room", [booking("10:00", "11:00")], [], [booking("09:00", "09:30")]);
    expect(freeUnits(room, T("09:00"), T("10:00"))).toEqual(["room-unit-1", "room-unit-2"]);
    expect(freeUnits(room, T("09:15"), T("10:15"))).toEqual(["room-unit-2"]);
    expect(freeUnits(room, T("11:00"), T("12:00"))).toEqual([
      "room-unit-1",
      "room-unit-2",
      "room-unit-3",
    ]);
  });
});
