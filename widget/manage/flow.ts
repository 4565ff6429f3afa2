import { ApiFailure, type Client } from "../api";
import type { MessageKey } from "../i18n/messages";
import { zonedDayRange, zonedToUtc } from "../time";
import type { Alternative, SlotChoice, TimeSlots } from "../types";
import type { ManagedBooking } from "./types";

/** The manage page's API calls: the link's token is the only credential. */

const base = (token: string) => `/manage/${encodeURIComponent(token)}`;

export const loadBooking = (api: Client, token: string) => api.get<ManagedBooking>(base(token));

/** Free starts for moving the booking on one day of the salon's calendar, as UTC instants. */
export async function freeStarts(
  api: Client,
  token: string,
  date: string,
  zone: string,
): Promise<SlotChoice[]> {
  const { start, end } = zonedDayRange(date, zone);
  const q = new URLSearchParams({ range_start: start, range_end: end });
  const res = await api.get<TimeSlots>(`${base(token)}/time-slots?${q}`);
  // The list names local times in its own zone (the location's).
  const listed = res.timezone || zone;
  return res.dates
    .filter((d) => d.date === date)
    .flatMap((d) => d.slots.map((s) => ({ start: zonedToUtc(d.date, s.start, listed) })));
}

/** The booking as the API returns it after the change (read again when the answer has none). */
async function changed(api: Client, token: string, answer: unknown): Promise<ManagedBooking> {
  const b = answer as Partial<ManagedBooking> | null;
  return b && typeof b.uuid === "string" && b.policy
    ? (b as ManagedBooking)
    : loadBooking(api, token);
}

export async function cancel(api: Client, token: string) {
  return changed(api, token, await api.post(`${base(token)}/cancel`, {}));
}

export async function reschedule(api: Client, token: string, start: string) {
  return changed(api, token, await api.post(`${base(token)}/reschedule`, { reserved_on: start }));
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
