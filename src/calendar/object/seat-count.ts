import type { CalendarEntry } from "../types";
import type { SessionSeats } from "../rules";

/**
 * The seats one claim meets and asks for, per session key: the live entries
 * of the session already in the calendar (`mate`) and the claim's own
 * entries (`add`, each with the capacity the service has now). A session is
 * full for the claim when its seats with the claim's pass that capacity.
 */
export class SeatCount {
  private readonly sessions = new Map<
    string,
    { mates: Map<string, CalendarEntry>; asked: number; capacity: number }
  >();

  private of(key: string) {
    let s = this.sessions.get(key);
    if (!s) this.sessions.set(key, (s = { mates: new Map(), asked: 0, capacity: 0 }));
    return s;
  }

  mate(entry: CalendarEntry) {
    if (entry.session) this.of(entry.session.key).mates.set(entry.id, entry);
  }

  add(session: SessionSeats) {
    const s = this.of(session.key);
    s.asked += session.seats;
    s.capacity = Math.max(s.capacity, session.capacity);
  }

  private static taken(mates: Iterable<CalendarEntry>, skip: ReadonlySet<string> = new Set()) {
    let n = 0;
    for (const m of mates) if (!skip.has(m.id)) n += m.session?.seats ?? 1;
    return n;
  }

  private overfilled() {
    return [...this.sessions.values()].filter(
      (s) => SeatCount.taken(s.mates.values()) + s.asked > s.capacity,
    );
  }

  /** Whether the claim would overfill a session (even one it opens: more seats than capacity). */
  overfull(): boolean {
    return this.overfilled().length > 0;
  }

  /** The entries already in the sessions the claim would overfill (its refusal's conflicts). */
  full(): CalendarEntry[] {
    return this.overfilled().flatMap((s) => [...s.mates.values()]);
  }

  /** Whether every session fits once the entries `freed` (another write is removing them) go. */
  fitsWithout(freed: ReadonlySet<string>): boolean {
    return [...this.sessions.values()].every(
      (s) => SeatCount.taken(s.mates.values(), freed) + s.asked <= s.capacity,
    );
  }
}
