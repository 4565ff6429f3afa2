import { useI18n } from "../i18n/context";
import { formatDuration } from "../service-terms";
import { formatFullDateTime } from "../time";
import { salonZone } from "./flow";
import type { ManagedView } from "./types";

/** What was booked, with whom and when (on the salon's clock), and the salon's policy texts. */
export function BookingFacts({ view }: { view: ManagedView }) {
  const { t, format } = useI18n();
  const { booking } = view;
  const zone = salonZone(view);
  const names = new Map(view.staffers.map((s) => [s.uuid, s.first_name]));
  const staff = [
    ...new Set(
      booking.ordered_services.flatMap((s) => {
        const name = s.staffer_uuid ? names.get(s.staffer_uuid) : undefined;
        return name ? [name] : [];
      }),
    ),
  ];
  const { policy } = booking;
  const texts = [
    { key: "manage.policy" as const, text: policy.policy_text },
    { key: "manage.cancellation_policy" as const, text: policy.cancellation_text },
    { key: "manage.change_policy" as const, text: policy.change_text },
  ].filter((p) => p.text?.trim());
  return (
    <>
      <dl class="facts">
        <dt>{t("manage.services")}</dt>
        <dd>
          <ul>
            {booking.ordered_services.map((s) => (
              <li key={s.uuid}>
                {s.name} · {formatDuration(s.duration.value, format)}
              </li>
            ))}
          </ul>
        </dd>
        {staff.length > 0 && (
          <>
            <dt>{t("manage.staffer")}</dt>
            <dd>{staff.join(", ")}</dd>
          </>
        )}
        <dt>{t("manage.when")}</dt>
        <dd data-start={booking.start_time}>
          {formatFullDateTime(booking.start_time, format, zone)}
        </dd>
      </dl>
      <p class="hint">{t("manage.salon_zone", { zone })}</p>
      {texts.length > 0 && (
        <div class="policy">
          {texts.map((p) => (
            <p key={p.key}>
              <strong>{t(p.key)}:</strong> {p.text}
            </p>
          ))}
        </div>
      )}
    </>
  );
}
