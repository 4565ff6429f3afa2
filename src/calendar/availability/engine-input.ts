import { unitCalendarId } from "../ids";
import type { loadAvailability } from "../queries/availability";
import type {
  BusyInterval,
  LocationRules,
  ResourceInput,
  StafferCalendarInput,
  UnitCalendarInput,
} from "../rules";
import { sessionAskOf } from "../rules";

type Loaded = Awaited<ReturnType<typeof loadAvailability>>;

/** Turns the rows of one availability load into the slot engine's plain inputs. */
export function engineInputs(
  loaded: Loaded,
  options: {
    ignoreEntries?: ReadonlySet<string>;
    /** Unit calendars tried before the others (a reservation's own units, when it is used). */
    preferUnits?: ReadonlySet<string>;
    /** Busy time known from refused claims, per calendar (staffer or unit), not yet in D1's read. */
    extraBusy?: ReadonlyMap<string, BusyInterval[]>;
    /** A staff write: publishable keys' holds are not in its way (it takes their time). */
    holdsYield?: boolean;
  } = {},
) {
  const location = loaded.location;
  if (!location) return null;
  const rules: LocationRules = {
    timezone: location.timezone,
    slotStepMin: location.slotStep,
    minNoticeMin: location.minNotice,
  };
  const calendars = new Map<string, StafferCalendarInput>();
  const calendar = (id: string) => {
    let c = calendars.get(id);
    if (!c) {
      c = { id, weekly: [], overrides: [], busy: [] };
      calendars.set(id, c);
    }
    return c;
  };
  for (const p of loaded.performers) calendar(p.stafferId);
  for (const w of loaded.weekly) {
    calendars.get(w.stafferId)?.weekly.push({ weekday: w.weekday, start: w.start, end: w.end });
  }
  for (const o of loaded.overrides) {
    calendars.get(o.stafferId)?.overrides.push({ date: o.date, intervals: o.intervals });
  }
  const busyOfRow = (
    b: Omit<BusyInterval, "session"> & {
      yields: boolean;
      sessionKey: string | null;
      seats: number;
      capacity: number | null;
    },
  ): BusyInterval => ({
    start: b.start,
    end: b.end,
    kind: b.kind,
    ...(b.yields ? { yields: true } : {}),
    ...(b.sessionKey
      ? { session: { key: b.sessionKey, seats: b.seats, capacity: b.capacity ?? 1 } }
      : {}),
  });
  const skipped = (b: { id: string; yields: boolean }) =>
    // A booking being moved must not collide with its own current time.
    options.ignoreEntries?.has(b.id) || (options.holdsYield && b.yields);
  for (const b of loaded.busy) {
    if (skipped(b) || !b.stafferId) continue;
    calendars.get(b.stafferId)?.busy.push(busyOfRow(b));
  }

  // Each unit of a resource is a calendar of busy time only, tried in unit order.
  const units = new Map<string, UnitCalendarInput>();
  const resources: ResourceInput[] = loaded.resources
    .map((r) => ({
      id: r.id,
      units: Array.from({ length: r.quantity }, (_, i) => {
        const unit = { id: unitCalendarId(r.id, i + 1), busy: [] as BusyInterval[] };
        units.set(unit.id, unit);
        return unit;
      }).sort(
        (a, b) =>
          Number(options.preferUnits?.has(b.id) ?? false) -
          Number(options.preferUnits?.has(a.id) ?? false),
      ),
    }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const b of loaded.resourceBusy) {
    if (skipped(b) || !b.resourceId || b.unit == null) continue;
    units.get(unitCalendarId(b.resourceId, b.unit))?.busy.push(busyOfRow(b));
  }
  for (const [calendarId, busy] of options.extraBusy ?? []) {
    (calendars.get(calendarId)?.busy ?? units.get(calendarId)?.busy)?.push(...busy);
  }
  /** The resources a service needs (sorted); one missing here means it cannot be booked here. */
  const resourcesOf = (serviceId: string) =>
    loaded.required
      .filter((r) => r.serviceId === serviceId)
      .map((r) => r.resourceId)
      .sort();
  /** The resources a service needs as the engine takes them: one missing here has no units. */
  const requiredBy = (serviceId: string): ResourceInput[] =>
    resourcesOf(serviceId).map((id) => resources.find((r) => r.id === id) ?? { id, units: [] });
  /** The live busy list of a staffer's or a unit's calendar, to note time another write won. */
  const busyOf = (calendarId: string) =>
    calendars.get(calendarId)?.busy ?? units.get(calendarId)?.busy;
  /** Calendars of the staff who perform a service here, sorted by id for deterministic results. */
  const performersOf = (serviceId: string) =>
    loaded.performers
      .filter((p) => p.serviceId === serviceId)
      .map((p) => calendars.get(p.stafferId))
      .filter((c): c is StafferCalendarInput => c !== undefined)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const capacities = new Map(loaded.services.map((s) => [s.id, s]));
  /** The session `seats` of a service ask for (none for a one-seat service, or one not read). */
  const sessionOf = (serviceId: string, seats = 1) => {
    const row = capacities.get(serviceId);
    return row ? sessionAskOf(row, seats) : undefined;
  };
  return {
    rules,
    calendars,
    sessionOf,
    performersOf,
    resources,
    resourcesOf,
    requiredBy,
    busyOf,
    location,
  };
}
