import { useI18n } from "../i18n/context";
import type { Address, SalonFace } from "../types";

/** The salon's name (its brand's, else the location's) and logo, atop every step. */
export function SalonHeader({ face }: { face: SalonFace }) {
  const { t } = useI18n();
  return (
    <header class="salon">
      {face.logo_url && (
        // The logo's host learns nothing of the page: the manage and offer pages carry their
        // token in the query string, whatever referrer policy the browser was set to.
        <img
          class="salon-logo"
          src={face.logo_url}
          alt={t("face.logo", { name: face.name })}
          referrerpolicy="no-referrer"
        />
      )}
      <h1 class="salon-name">{face.name}</h1>
    </header>
  );
}

/** "line1, line2, postal code city, country" as lines, the country in the page's language. */
function addressLines(a: Address, locale: string): string[] {
  let country = a.country;
  try {
    country = new Intl.DisplayNames([locale], { type: "region" }).of(a.country) ?? a.country;
  } catch {
    // An unknown code stays as written.
  }
  return [a.line1, a.line2, `${a.postal_code} ${a.city}`, country].filter((l): l is string =>
    Boolean(l),
  );
}

/**
 * How to reach the salon: after the step, in the same place on every step and on the
 * confirmation (WCAG 2.2, consistent help). Nothing when the salon gave neither.
 */
export function SalonHelp({ face }: { face: SalonFace }) {
  const { t, format } = useI18n();
  if (!face.address && !face.phone) return null;
  return (
    <footer class="help" aria-labelledby="help-title">
      <h2 id="help-title" class="help-title">
        {t("face.help")}
      </h2>
      <p class="help-name">{face.name}</p>
      {face.address && (
        <address>
          {addressLines(face.address, format).map((line) => (
            <span key={line}>
              {line}
              <br />
            </span>
          ))}
        </address>
      )}
      {face.phone && (
        <p>
          <a
            href={`tel:${face.phone}`}
            aria-label={t("face.call", { phone: face.phone_display ?? face.phone })}
          >
            {face.phone_display ?? face.phone}
          </a>
        </p>
      )}
    </footer>
  );
}
