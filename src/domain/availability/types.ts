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

export interface BusyInterval {
  start: number;
  /** For bookings this already includes the booked service's buffer. */
  end: number;
  /** `held`: a reservation's time, busy like a booking until it expires. */
  kind: "booking" | "blocked" | "held";
}

export interface StafferCalendarInput {
  id: string;
  weekly: WeeklyInterval[];
  overrides: DateOverride[];
  busy: BusyInterval[];
}

export interface Interval {
  start: number;
  end: number;
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
}

export interface Slot {
  start: number;
  /** start + duration: the buffer is the staffer's, not the client's. */
  end: number;
  /** Free staffers, sorted; the slot's quantity is their number. */
  stafferIds: string[];
}

export interface DaySlots {
  date: string;
  slots: Slot[];
  /** Maximal runs of bookable time: the union of the free slots' [start, end). */
  intervals: Interval[];
}

export type StartVerdict = "ok" | "in_past" | "outside_hours" | "busy";
