import type { Address, SalonFace } from "../types";

/**
 * `salon` on the manage and offer views: the brand's name (else the location's), its logo
 * and accent, and the location's contact. Absent from an older API.
 */
export interface SalonView {
  name: string;
  location_name: string;
  address: Address | null;
  address_line: string | null;
  phone: string | null;
  phone_display?: string | null;
  logo_url: string | null;
  accent_color: string | null;
}

/** What the header and the help block show; null when the view names no salon. */
export function faceOfSalon(salon: SalonView | null | undefined): SalonFace | null {
  if (!salon) return null;
  return {
    name: salon.name,
    logo_url: salon.logo_url ?? null,
    accent_color: salon.accent_color ?? null,
    address: salon.address ?? null,
    phone: salon.phone ?? null,
    phone_display: salon.phone_display ?? salon.phone ?? null,
  };
}

/**
 * The brand's accent on every accent-coloured part, as on the booking widget: the API only
 * takes colours white text reads on (4.5:1), so the text on it turns white.
 */
export function applyAccent(color: string | null | undefined) {
  if (!color) return;
  const root = document.documentElement.style;
  root.setProperty("--accent", color);
  root.setProperty("--accent-fg", "#ffffff");
}
