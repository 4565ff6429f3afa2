/** One bookable start of one service, as Google's availability carries it. */
export interface OpenSlot {
  serviceId: string;
  /** Unix seconds, UTC. */
  startSec: number;
  durationSec: number;
  /**
   * What the start could hold with nobody booked: the staffers who perform the
   * service here, capped by the units of the scarcest resource it needs, times
   * the seats of a session for a group service. A start's own working hours
   * are not counted (Google reads it as the slot's capacity, a number that
   * only changes when the catalogue does).
   */
  spotsTotal: number;
  /** Bookings still possible at that start: the public time-slots' `quantity`. */
  spotsOpen: number;
}
