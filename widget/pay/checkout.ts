import type { Client } from "../api";
import type { Checkout } from "../types";

/** How the provider's page leads back to the widget: which reservation, paid or not. */
export interface ReturnMarker {
  kind: "paid" | "back";
  reservation: string;
}

/**
 * The widget's own address with a marker for the reservation: `#paid=` after paying, `#back=`
 * from the page's Back link. A fragment never reaches a server (the widget's nor the
 * provider's logs), and an earlier marker is replaced, not stacked.
 */
export function returnUrls(href: string, reservation: string) {
  const page = href.split("#")[0] ?? href;
  return { success_url: `${page}#paid=${reservation}`, cancel_url: `${page}#back=${reservation}` };
}

export function returnMarker(hash: string): ReturnMarker | null {
  const found = /^#(paid|back)=([0-9a-f-]{36})$/i.exec(hash);
  return found ? { kind: found[1] as ReturnMarker["kind"], reservation: found[2] ?? "" } : null;
}

/** Opens the provider's hosted page for a held reservation: the customer pays there. */
export const startCheckout = (
  api: Client,
  reservation: string,
  customer: Record<string, unknown>,
  href: string,
) =>
  api.post<Checkout>(`/reservations/${reservation}/checkout`, {
    ...customer,
    ...returnUrls(href, reservation),
  });
