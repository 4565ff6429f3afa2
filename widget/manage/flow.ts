import { ApiFailure, type Client } from "../api";
import type { MessageKey } from "../i18n/messages";
import type { Alternative, SlotChoice } from "../types";
import type { ManagedBooking, ManageLink, ManagedView, MoveSlots } from "./types";

/** The manage page's API calls: the link's token is the only credential. */

const base = (token: string) => `/manage/${encodeURIComponent(token)}`;

/**
 * The salon's zone: every time on the page is read on its clock and named with it, as the
 * customer's messages write them. Not the booking's own `timezone`, which is the zone the
 * booking's client asked for (a widget booking's is the customer's browser's).
 */
export const salonZone = (view: Pick<ManagedView, "timezone">) => view.timezone;

export const loadView = (api: Client, token: string) => api.get<ManagedView>(base(token));

/**
 * Free starts for moving the booking on one day of the salon's calendar (a date names the
 * whole day in the location's zone), each as the UTC instant the reschedule takes.
 */
export async function freeStarts(api: Client, token: string, date: string): Promise<SlotChoice[]> {
  const q = new URLSearchParams({ range_start: date, range_end: date });
  const res = await api.get<MoveSlots>(`${base(token)}/time-slots?${q}`);
  return res.dates
    .filter((d) => d.date === date)
    .flatMap((d) => d.slots.map((s) => ({ start: s.reserved_on })));
}

/** Cancel answers the booking as it now is. */
export const cancel = (api: Client, token: string) =>
  api.post<ManagedBooking>(`${base(token)}/cancel`, {});

/**
 * Moves the booking. The answer carries the link for the booking as it now is (its expiry
 * follows the new end), and the page reads the booking again with it; should that read
 * fail, the move still stands: the moved booking with the new link.
 */
export async function reschedule(
  api: Client,
  token: string,
  start: string,
  current: ManagedView,
): Promise<ManagedView> {
  const { manage, ...booking } = await api.post<ManagedBooking & { manage: ManageLink }>(
    `${base(token)}/reschedule`,
    { reserved_on: start },
  );
  return loadView(api, manage.token).catch(() => ({ ...current, booking, manage }));
}

/** What the page says for a refusal of the manage API, or null when it is no refusal of its own. */
export function refusal(e: unknown): MessageKey | null {
  if (!(e instanceof ApiFailure)) return null;
  if (e.status === 401 || e.code === "invalid_token") return "manage.invalid_token";
  switch (e.code) {
    case "policy_window_passed":
      return "manage.policy_window_passed";
    case "booking_closed":
      return "manage.booking_closed";
    case "slot_unavailable":
      return e.alternatives?.length ? "slot.taken_alternatives" : "slot.taken";
    default:
      return null;
  }
}

export const alternativesOf = (e: unknown): Alternative[] =>
  e instanceof ApiFailure ? (e.alternatives ?? []) : [];
