import type {
  BusyInterval,
  LocationRules,
  ResourceInput,
  StafferCalendarInput,
} from "../src/calendar/rules";
import { localDateTimeToInstant } from "../src/calendar/rules";

/** Deterministic pseudo-random numbers (mulberry32), so every run measures the same calendar. */
export function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const LOCATION: LocationRules = {
  timezone: "Europe/Berlin",
  slotStepMin: 15,
  minNoticeMin: 0,
};
export const FROM = "2030-03-01";
const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface Fixture {
  staffers: StafferCalendarInput[];
  days: number;
  toDate: string;
}

/**
 * `staffCount` staffers (20 by default) working Mon–Sat 09:00–18:00 (every
 * third with a 13:00–14:00 lunch gap), 100 bookings and 10 blocked spots per
 * staffer per 31 days, spread over `days` days. With `aligned`, every
 * interval sits on whole local hours, the input both engines can express
 * identically.
 */
export function buildFixture(days: number, aligned = false, seed = 42, staffCount = 20): Fixture {
  const random = rng(seed);
  const toDate = new Date(Date.parse(`${FROM}T00:00:00Z`) + (days - 1) * DAY)
    .toISOString()
    .slice(0, 10);
  const staffers: StafferCalendarInput[] = Array.from({ length: staffCount }, (_, i) => ({
    id: `staffer-${String(i).padStart(staffCount > 100 ? 3 : 2, "0")}`,
    weekly: [1, 2, 3, 4, 5, 6].flatMap((weekday) =>
      i % 3 === 0
        ? [
            { weekday, start: "09:00", end: "13:00" },
            { weekday, start: "14:00", end: "18:00" },
          ]
        : [{ weekday, start: "09:00", end: "18:00" }],
    ),
    overrides: [],
    busy: [],
  }));
  const scale = (days / 31) * (staffCount / 20);
  // Conversions repeat (a few hundred local times per day): each is made once.
  const instants = new Map<string, number>();
  const instant = (date: string, hhmm: string) => {
    const key = `${date}T${hhmm}`;
    let v = instants.get(key);
    if (v === undefined)
      instants.set(key, (v = localDateTimeToInstant(date, hhmm, LOCATION.timezone)));
    return v;
  };
  const place = (count: number, kind: BusyInterval["kind"]) => {
    for (let n = 0; n < Math.round(count * scale); n++) {
      const staffer = staffers[Math.floor(random() * staffers.length)];
      const day = Math.floor(random() * days);
      const date = new Date(Date.parse(`${FROM}T00:00:00Z`) + day * DAY).toISOString().slice(0, 10);
      const hour = 9 + Math.floor(random() * 8);
      const minute = aligned ? 0 : ([0, 15, 30, 45][Math.floor(random() * 4)] ?? 0);
      const start = instant(
        date,
        `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`,
      );
      const length = aligned
        ? HOUR * (1 + Math.floor(random() * 2))
        : (30 + Math.floor(random() * 6) * 15) * 60_000;
      staffer?.busy.push({ start, end: start + length, kind });
    }
  };
  place(2000, "booking");
  place(200, "blocked");
  // In start order, and made one calendar after another, as the availability read delivers a
  // calendar's entries and the Worker turns its rows into objects (so they sit together in memory).
  for (const s of staffers)
    s.busy = s.busy
      .sort((a, b) => a.start - b.start)
      .map((b) => ({ start: b.start, end: b.end, kind: b.kind }));
  return { staffers, days, toDate };
}

/**
 * Five resources of a salon: two rooms of 2 units, a basin of 3 units and two
 * single pieces of equipment. Each unit is busy like a staffer of
 * buildFixture: about 100 bookings and 10 blocked spots per 31 days, 30–105
 * minutes each, starting 09:00–16:45 on the quarter hour, Monday to Sunday.
 */
export function buildResources(days: number, seed = 7): ResourceInput[] {
  const random = rng(seed);
  const shapes: [string, number][] = [
    ["room-a", 2],
    ["room-b", 2],
    ["basin", 3],
    ["steamer", 1],
    ["laser", 1],
  ];
  const scale = days / 31;
  const busyOf = (): BusyInterval[] => {
    const busy: BusyInterval[] = [];
    const add = (count: number, kind: BusyInterval["kind"]) => {
      for (let n = 0; n < Math.round(count * scale); n++) {
        const day = Math.floor(random() * days);
        const date = new Date(Date.parse(`${FROM}T00:00:00Z`) + day * DAY)
          .toISOString()
          .slice(0, 10);
        const hour = 9 + Math.floor(random() * 8);
        const minute = [0, 15, 30, 45][Math.floor(random() * 4)] ?? 0;
        const start = localDateTimeToInstant(
          date,
          `${String(hour).padStart(2, "0")}:${String(minute).padStart(2, "0")}`,
          LOCATION.timezone,
        );
        busy.push({ start, end: start + (30 + Math.floor(random() * 6) * 15) * 60_000, kind });
      }
    };
    add(100, "booking");
    add(10, "blocked");
    return busy;
  };
  return shapes.map(([id, quantity]) => ({
    id,
    units: Array.from({ length: quantity }, (_, i) => ({ id: `${id}-${i + 1}`, busy: busyOf() })),
  }));
}
