/** Plain inputs and outputs of the slot engine; instants are epoch milliseconds, intervals half-open. */
export interface LocationRules {
  timezone: string;
  slotStepMin: number;
  minNoticeMin: number;
}

export interface WeeklyInterval {
  /** 1 = Monday … 7 = Sunday. */
  weekday: number;
  start: string;
  end: string;
}

export interface DateOverride {
  date: string;
  /** Working hours that date; empty means a day off. */
  intervals: { start: string; end: string }[];
}

/** A half-open span of time [start, end) in epoch ms: working hours, merged busy time, free runs. */
export interface Interval {
  start: number;
  end: number;
}

/**
 * A piece of busy time of one calendar (a staffer's or a resource unit's): the
 * one name for it everywhere, from the slot engine to the calendar object
 * (`CalendarEntry` adds its identity) and a refused claim's conflicts.
 */
export interface BusyInterval extends Interval {
  /** For bookings this already includes the booked service's buffer (`busyEnd`). */
  end: number;
  /** `held`: a reservation's time, busy like a booking until it expires; `external`: a staffer's own calendar's event, busy like a blocked spot. */
  kind: "booking" | "blocked" | "held" | "external";
  /** A publishable key's hold: staff may book over it (the hold then ends). */
  yields?: boolean;
  /** A seat (or seats) of a group service's session: shares its time with the same session. */
  session?: SessionSeats;
}

/**
 * The seats one entry takes in a session of a group service. Entries with
 * the same `key` (the service and the start, `sessionKey`) in one calendar
 * are one session: they may overlap one another, nothing else may overlap
 * them, and their seats together never pass the capacity.
 */
export interface SessionSeats {
  key: string;
  seats: number;
  /** The service's capacity when the entry was claimed: a claim fills the session up to it. */
  capacity: number;
}

/** A group service being placed or searched: which session a start joins, and how many seats. */
export interface SessionAsk {
  serviceId: string;
  capacity: number;
  seats: number;
}

export interface StafferCalendarInput {
  id: string;
  weekly: WeeklyInterval[];
  overrides: DateOverride[];
  busy: BusyInterval[];
}

/** One unit of a resource: busy time only; free whenever not busy. */
export interface UnitCalendarInput {
  id: string;
  busy: BusyInterval[];
}

/** A resource a service requires: its units, in the order they are tried (unit 1 first). */
export interface ResourceInput {
  id: string;
  units: UnitCalendarInput[];
}

export interface SlotSearchInput {
  location: LocationRules;
  staffers: StafferCalendarInput[];
  durationMin: number;
  bufferMin: number;
  /** Inclusive local dates in the location's zone. */
  fromDate: string;
  toDate: string;
  now: number;
  /**
   * The resources the searched service requires: a slot also needs one free
   * unit of each over [start, start + duration + buffer).
   */
  resources?: ResourceInput[];
  /**
   * A group service (capacity > 1): a start with an open session of it shows
   * its seats left, a free staffer a new session's capacity.
   */
  session?: SessionAsk;
  /** Also list each slot's free staffers (`Slot.stafferIds`); the count alone is cheaper. */
  listStaffers?: boolean;
}

export interface Slot {
  start: number;
  /** start + duration: the buffer is the staffer's, not the client's. */
  end: number;
  /** Free staffers, sorted: only when the search asked for them (`listStaffers`). */
  stafferIds?: string[];
  /**
   * Bookings that could still be made at this start: the free staffers, or
   * fewer when a required resource has fewer free units. Always at least 1.
   * For a group service: the seats left (open sessions' free seats plus a
   * full capacity for each new session a free staffer could start).
   */
  quantity: number;
}

/** A slot of a search that listed staffers (`listStaffers: true`). */
export type StaffedSlot = Slot & { stafferIds: string[] };

export interface DaySlots<S extends Slot = Slot> {
  date: string;
  slots: S[];
  /** Maximal runs of bookable time: the union of the free slots' [start, end). */
  intervals: Interval[];
}

/** `full`: the start joins a session of the service that has fewer seats left than asked. */
export type StartVerdict = "ok" | "in_past" | "outside_hours" | "busy" | "full";

/** One service of a cart item, as the cart places it. */
export interface CartService {
  durationMin: number;
  bufferMin: number;
  /** Candidates: one id when the client fixed the staffer. */
  stafferIds: string[];
  /** Resources the service requires: one unit of each for its duration + buffer. */
  resourceIds?: string[];
  /** A group service: joins (or opens) the session at its start. */
  session?: SessionAsk | undefined;
}
