import { useI18n } from "../i18n/context";
import { packageBookingUrl } from "../package/widget-home";
import type { ManagedPackage } from "./types";

const formatDate = (instant: string, locale: string, timeZone: string) =>
  new Date(instant).toLocaleDateString(locale, {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone,
  });

/**
 * The booking customer's packages: what each still books, until when, and a link that
 * opens the widget with it chosen (when this browser knows the salon's widget).
 */
export function Packages(props: { packages: ManagedPackage[]; location: string; zone: string }) {
  const { t, format, locale } = useI18n();
  if (props.packages.length === 0) return null;
  return (
    <section class="packages" aria-labelledby="packages-title">
      <h3 id="packages-title">{t("manage.packages")}</h3>
      <ul>
        {props.packages.map((p) => {
          const book =
            p.status === "active" ? packageBookingUrl(props.location, p.uuid, locale) : null;
          const title = `package-${p.uuid}`;
          return (
            <li key={p.uuid} data-package={p.uuid}>
              <h4 id={title}>{p.name}</h4>
              <ul class="credits">
                {p.credits.map((c, i) => (
                  <li key={i}>
                    <strong>
                      {t("manage.package_left", {
                        left: String(c.remaining),
                        total: String(c.total),
                      })}
                    </strong>
                    {c.service_names.length > 0 &&
                      ` · ${t("manage.package_for", { services: c.service_names.join(", ") })}`}
                    {c.reserved > 0 && (
                      <>
                        {" · "}
                        <span class="reserved">
                          {t("manage.package_reserved", { count: String(c.reserved) })}
                        </span>
                      </>
                    )}
                  </li>
                ))}
              </ul>
              <p class="hint">
                {t("manage.package_valid_until", {
                  date: formatDate(p.expires_at, format, props.zone),
                })}
              </p>
              {p.status === "used_up" && <p>{t("manage.package_used_up")}</p>}
              {p.status === "past_due" && <p>{t("manage.package_past_due")}</p>}
              {p.status === "active" &&
                (book ? (
                  <a class="button" href={book} aria-describedby={title}>
                    {t("manage.package_book")}
                  </a>
                ) : (
                  <p class="hint">{t("manage.package_book_elsewhere")}</p>
                ))}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
