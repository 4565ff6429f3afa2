import type { Details, Selection } from "../flow";
import type { SlotChoice } from "../types";

/**
 * What the customer chose and typed, kept in the tab's session storage while they are on the
 * provider's page: the widget's state does not survive leaving the page, and coming back
 * (Back, or paying) shows it again. Per tab, gone with the tab; nothing here is sent anywhere.
 */
export interface Resumable {
  selection: Selection;
  chosen: SlotChoice;
  details: Details;
}

const keyOf = (reservation: string) => `salon-widget:pay:${reservation}`;

// Storage can be refused (a framed page with third-party storage blocked): then nothing is kept.
export function keep(reservation: string, state: Resumable) {
  try {
    sessionStorage.setItem(keyOf(reservation), JSON.stringify(state));
  } catch {
    // The customer retypes their details on coming back.
  }
}

export function resume(reservation: string): Resumable | null {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(keyOf(reservation)) ?? "null");
    return isResumable(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

export function forget(reservation: string) {
  try {
    sessionStorage.removeItem(keyOf(reservation));
  } catch {
    // Nothing was kept.
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** Only a shape this widget wrote is used: anything else is as good as nothing kept. */
function isResumable(v: unknown): v is Resumable {
  if (!isObject(v) || !isObject(v.selection) || !isObject(v.chosen) || !isObject(v.details))
    return false;
  const { selection, chosen, details } = v;
  return (
    Array.isArray(selection.services) &&
    selection.services.every((s) => typeof s === "string") &&
    typeof selection.location === "string" &&
    typeof selection.staffer === "string" &&
    typeof selection.zone === "string" &&
    typeof chosen.start === "string" &&
    ["first_name", "last_name", "middle_name", "phone", "email", "comment"].every(
      (k) => typeof details[k] === "string",
    )
  );
}
