import { ApiFailure, type Client } from "../api";
import type { MessageKey } from "../i18n/messages";
import type { Service } from "../types";
import type { PublicPackage } from "./types";

/** The package a customer books with (`?package=<uuid>`, as the manage page links it). */
export const loadPackage = (api: Client, uuid: string) =>
  api.get<PublicPackage>(`/customer-packages/${encodeURIComponent(uuid)}`);

/** Credits that can still pay for a booking made now. */
const liveCredits = (pkg: PublicPackage, now: number) =>
  pkg.credits.filter((c) => c.remaining > 0 && Date.parse(c.expires_at) > now);

/** How many bookings the package still pays for. */
export const creditsLeft = (pkg: PublicPackage, now = Date.now()) =>
  liveCredits(pkg, now).reduce((sum, c) => sum + c.remaining, 0);

/** The services its credits left name, in the catalogue's order: what the widget then offers. */
export function coveredServices(pkg: PublicPackage, services: Service[], now = Date.now()) {
  const named = new Set(liveCredits(pkg, now).flatMap((c) => c.service_uuids));
  return services.filter((s) => named.has(s.uuid));
}

/** Why the widget cannot book with the package it was opened with, or null: it can. */
export function unusable(pkg: PublicPackage, covered: Service[]): MessageKey | null {
  if (pkg.status !== "active" || creditsLeft(pkg) === 0) return "package.inactive";
  return covered.length === 0 ? "package.no_services" : null;
}

/**
 * What the page says when the API refuses the booking for its package: 409
 * `package_unavailable` (used up, expired, or the last credit just taken), or 422 on the
 * package's field (not this customer's: the phone must be the one it was bought with; or a
 * service it does not pay for). Null for anything else.
 */
export function packageRefusal(e: unknown): MessageKey | null {
  if (!(e instanceof ApiFailure)) return null;
  if (e.code === "package_unavailable") return "package.unavailable";
  const onPackage = Object.keys(e.fields).some((f) => f.endsWith("customer_package_uuid"));
  return e.status === 422 && onPackage ? "package.refused" : null;
}
