import { inStartOrder, mergeBusy, overlapsMerged } from "./merged-busy";
import type { BusyInterval, Interval, SessionAsk } from "./types";

export { MAX_CAPACITY } from "../../platform/rules/capacity";

/**
 * The one key of a session: a group service at one start with one staffer.
 * The staffer is part of it because a resource unit's calendar is shared by
 * every staffer: two staffers' sessions at one start are two sessions there,
 * each needing a unit of its own.
 */
export const sessionKey = (serviceId: string, stafferId: string, start: number) =>
  `${serviceId}@${start}/${stafferId}`;

/** The session a booking of `service` asks for with `seats`; none for a one-seat service. */
export const sessionAskOf = (
  service: { id: string; capacity: number },
  seats = 1,
): SessionAsk | undefined =>
  service.capacity > 1 ? { serviceId: service.id, capacity: service.capacity, seats } : undefined;

/** A session entry of a calendar: its time and its seats. */
export interface SessionTime extends Interval {
  key: string;
  seats: number;
  capacity: number;
  /** Its key read back into service, start and staffer (`readSessionKey`), once asked. */
  parts?: SessionKeyParts | null;
}

interface SessionKeyParts {
  serviceId: string;
  start: number;
  stafferId: string;
}

/**
 * A key read back into what `sessionKey` made it of; null if it cannot be
 * one. For a service id without "@" the reading is the only one, so
 * comparing parts is comparing keys, without spelling a key per start.
 */
function readSessionKey(key: string): SessionKeyParts | null {
  const at = key.indexOf("@");
  const slash = key.indexOf("/", at + 1);
  if (at < 0 || slash < 0) return null;
  const start = Number(key.slice(at + 1, slash));
  const parts = { serviceId: key.slice(0, at), start, stafferId: key.slice(slash + 1) };
  return sessionKey(parts.serviceId, parts.stafferId, start) === key ? parts : null;
}

/** Whether a session entry is the session of `serviceId` at `start` with `stafferId`. */
export function isSessionOf(
  session: SessionTime,
  serviceId: string,
  stafferId: string,
  start: number,
): boolean {
  if (serviceId.includes("@")) return session.key === sessionKey(serviceId, stafferId, start);
  if (session.parts === undefined) session.parts = readSessionKey(session.key);
  const parts = session.parts;
  return (
    parts !== null &&
    parts.start === start &&
    parts.serviceId === serviceId &&
    parts.stafferId === stafferId
  );
}

/**
 * One calendar's busy time split for seat questions: `plain` (merged, no
 * session) and `sessions` (sorted by start). `all` is every interval merged,
 * which is what a non-group service must keep clear of (merged when first read).
 */
export interface SplitBusy {
  all: Interval[];
  plain: Interval[];
  sessions: SessionTime[];
  /** The longest session entry: none starting more than this before a time can reach it. */
  longest: number;
}

export function splitBusy(busy: readonly BusyInterval[]): SplitBusy {
  const sessions: SessionTime[] = [];
  // Most calendars hold no session: then all of it is plain time, and nothing is copied.
  let plain: readonly Interval[] = busy;
  if (busy.some((b) => b.session)) {
    const rest: Interval[] = [];
    for (const b of busy) {
      const session = b.session;
      if (session)
        sessions.push({
          start: b.start,
          end: b.end,
          key: session.key,
          seats: session.seats,
          capacity: session.capacity,
        });
      else rest.push(b);
    }
    plain = rest;
  }
  if (!inStartOrder(sessions)) sessions.sort((a, b) => a.start - b.start || a.end - b.end);
  const merged = mergeBusy(plain);
  let all: Interval[] | null = sessions.length === 0 ? merged : null;
  let longest = 0;
  for (const s of sessions) if (s.end - s.start > longest) longest = s.end - s.start;
  return {
    get all() {
      return (all ??= mergeBusy(busy));
    },
    plain: merged,
    sessions,
    longest,
  };
}

/** Index of the first session starting at or after `t` (sessions are sorted by start). */
function firstStartingFrom(sessions: readonly SessionTime[], t: number): number {
  let lo = 0;
  let hi = sessions.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sessions[mid]?.start ?? 0) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How many seats `key` has taken in the calendar, or null when [start, end) meets other busy time. */
export function seatsTakenAt(
  busy: SplitBusy,
  key: string,
  start: number,
  end: number,
  extra: readonly Interval[] = [],
): number | null {
  if (overlapsMerged(busy.plain, start, end)) return null;
  if (extra.some((e) => e.start < end && start < e.end)) return null;
  let taken = 0;
  // Sessions are sorted by start: one overlapping [start, end) starts before `end` and no
  // earlier than `start - longest`, so a search over many days looks at a few of them.
  for (let i = firstStartingFrom(busy.sessions, start - busy.longest); ; i++) {
    const s = busy.sessions[i];
    if (!s || s.start >= end) break;
    if (s.end <= start) continue;
    if (s.key !== key) return null;
    taken += s.seats;
  }
  return taken;
}

/**
 * The verdict on joining (or opening) the session of `ask` at [start, end):
 * `busy` when anything but that session overlaps it, `full` when its seats
 * left are fewer than asked, else `ok` with the seats the session had (0: a new one).
 */
export function sessionFit(
  busy: SplitBusy,
  ask: SessionAsk,
  stafferId: string,
  start: number,
  end: number,
  extra: readonly Interval[] = [],
): { verdict: "ok"; taken: number } | { verdict: "busy" | "full" } {
  const taken = seatsTakenAt(busy, sessionKey(ask.serviceId, stafferId, start), start, end, extra);
  if (taken === null) return { verdict: "busy" };
  if (taken + ask.seats > ask.capacity) return { verdict: "full" };
  return { verdict: "ok", taken };
}
