import { everyShard } from "./every-shard";

/**
 * Seat invariants read straight from D1 (booking_services and
 * calendar_entries), for tests of group sessions: at rest, two live booked
 * services of one staffer (or entries of one resource unit) overlap only
 * when they are seats of the same session; a session's seats never pass its
 * capacity; and the seats the calendar entries carry are the live bookings'
 * quantities.
 */
interface BookedSeat {
  booking_id: string;
  staffer_id: string;
  service_id: string;
  capacity: number;
  quantity: number;
  starts_at: number;
  ends_at: number;
}

async function bookedSeats(workspaceId: string): Promise<BookedSeat[]> {
  const { results } = await everyShard
    .prepare(
      `select b.id as booking_id, bs.staffer_id, bs.service_id, s.capacity, bs.quantity,
            bs.reserved_on as starts_at, bs.reserved_until + bs.buffer * 60000 as ends_at
       from booking_services bs join bookings b on b.id = bs.booking_id
       join services s on s.id = bs.service_id
      where b.workspace_id = ? and b.is_canceled = 0
      order by bs.staffer_id, bs.reserved_on`,
    )
    .bind(workspaceId)
    .all<BookedSeat>();
  return results;
}

const sameSession = (a: BookedSeat, b: BookedSeat) =>
  a.capacity > 1 &&
  a.service_id === b.service_id &&
  a.staffer_id === b.staffer_id &&
  a.starts_at === b.starts_at;

/** Overlapping live booked services of one staffer that are not seats of one session. */
export async function seatOverlaps(workspaceId: string): Promise<[BookedSeat, BookedSeat][]> {
  const rows = await bookedSeats(workspaceId);
  const found: [BookedSeat, BookedSeat][] = [];
  for (let i = 0; i < rows.length; i++) {
    for (let j = i + 1; j < rows.length; j++) {
      const a = rows[i];
      const b = rows[j];
      if (!a || !b || a.staffer_id !== b.staffer_id || b.starts_at >= a.ends_at) break;
      if (!sameSession(a, b)) found.push([a, b]);
    }
  }
  return found;
}

/** Sessions (staffer, service, start) whose live seats pass the service's capacity. */
export async function overbookedSessions(workspaceId: string) {
  const sessions = new Map<string, { seats: number; capacity: number }>();
  for (const r of await bookedSeats(workspaceId)) {
    if (r.capacity <= 1) continue;
    const key = `${r.service_id}@${r.starts_at}/${r.staffer_id}`;
    const s = sessions.get(key) ?? { seats: 0, capacity: r.capacity };
    s.seats += r.quantity;
    sessions.set(key, s);
  }
  return [...sessions].filter(([, s]) => s.seats > s.capacity);
}

/**
 * Per session key, the seats of its staffer entries in calendar_entries
 * against the live bookings' quantities: the differences (none at rest).
 */
export async function seatMismatches(workspaceId: string) {
  const { results: entries } = await everyShard
    .prepare(
      `select session_key, sum(seats) as seats from calendar_entries
      where workspace_id = ? and staffer_id is not null and kind = 'booking'
        and session_key is not null group by session_key`,
    )
    .bind(workspaceId)
    .all<{ session_key: string; seats: number }>();
  const booked = new Map<string, number>();
  for (const r of await bookedSeats(workspaceId)) {
    if (r.capacity <= 1) continue;
    const key = `${r.service_id}@${r.starts_at}/${r.staffer_id}`;
    booked.set(key, (booked.get(key) ?? 0) + r.quantity);
  }
  const inEntries = new Map(entries.map((e) => [e.session_key, e.seats]));
  const keys = new Set([...booked.keys(), ...inEntries.keys()]);
  return [...keys]
    .filter((k) => booked.get(k) !== inEntries.get(k))
    .map((k) => ({ session: k, booked: booked.get(k), entries: inEntries.get(k) }));
}

/**
 * Unexpired entries of one resource unit that overlap without being seats of
 * one session, and sessions spread over more than one unit of a resource.
 */
export async function unitSeatProblems(workspaceId: string) {
  const { results } = await everyShard
    .prepare(
      `select source_id, resource_id, unit, kind, session_key, starts_at, ends_at from calendar_entries
      where workspace_id = ? and resource_id is not null and kind != 'blocked'
        and (expires_at is null or expires_at > ?)
      order by resource_id, unit, starts_at`,
    )
    .bind(workspaceId, Date.now())
    .all<{
      source_id: string;
      resource_id: string;
      unit: number;
      kind: string;
      session_key: string | null;
      starts_at: number;
      ends_at: number;
    }>();
  const problems: string[] = [];
  for (let i = 0; i < results.length; i++) {
    for (let j = i + 1; j < results.length; j++) {
      const a = results[i];
      const b = results[j];
      if (!a || !b || a.resource_id !== b.resource_id || a.unit !== b.unit) break;
      if (b.starts_at >= a.ends_at) break;
      if (!a.session_key || a.session_key !== b.session_key)
        problems.push(`overlap on ${a.resource_id}#${a.unit}: ${a.source_id} ${b.source_id}`);
    }
  }
  const units = new Map<string, Set<number>>();
  for (const e of results) {
    if (!e.session_key || e.kind !== "booking") continue;
    const key = `${e.session_key} ${e.resource_id}`;
    units.set(key, (units.get(key) ?? new Set()).add(e.unit));
  }
  for (const [key, used] of units)
    if (used.size > 1) problems.push(`session ${key} on units ${[...used].join(",")}`);
  return problems;
}
