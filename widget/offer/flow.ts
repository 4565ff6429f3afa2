import { ApiFailure, type Client } from "../api";
import type { MessageKey } from "../i18n/messages";
import type { BookedAnswer, OfferBooking, OfferView } from "./types";

/** The offer page's API calls: the link's token is the only credential. */

const base = (token: string) => `/waitlist-offers/${encodeURIComponent(token)}`;

export const loadOffer = (api: Client, token: string) => api.get<OfferView>(base(token));

/** Books the held time; the body carries only what the salon's form may require beyond the entry. */
export const bookOffer = (
  api: Client,
  token: string,
  extra: { customer_last_name?: string; customer_email?: string },
) => api.post<BookedAnswer>(`${base(token)}/book`, extra);

/** The booking an offer became, from the answer to booking it (its manage link when given). */
export const bookingOf = (answer: BookedAnswer): OfferBooking => ({
  uuid: answer.uuid,
  start_time: answer.start_time,
  end_time: answer.end_time,
  manage_url: answer.links?.find((l) => l.type === "manage")?.link ?? null,
});

/** What the page says for a refusal of the offer API, or null when it is no refusal of its own. */
export function refusal(e: unknown): MessageKey | null {
  if (!(e instanceof ApiFailure)) return null;
  if (e.status === 401 || e.code === "invalid_token") return "offer.invalid_token";
  if (e.code === "reservation_expired") return "offer.gone";
  return null;
}

/** Fields of the booking form a 422 names: the page asks for exactly those and tries again. */
export const missingFields = (e: unknown): string[] =>
  e instanceof ApiFailure && e.status === 422 ? Object.keys(e.fields) : [];
