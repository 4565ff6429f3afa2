/** Milliseconds in a minute: durations are minutes, instants epoch milliseconds. */
export const MINUTE = 60_000;

/** The reference's duration object: minutes, a unit label and the ISO 8601 form. */
export interface Duration {
  value: number;
  label: string;
  iso_8601: string;
}

export function durationObject(minutes: number): Duration {
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  const iso =
    minutes === 0 ? "PT0M" : `PT${hours > 0 ? `${hours}H` : ""}${rest > 0 ? `${rest}M` : ""}`;
  return { value: minutes, label: "minutes", iso_8601: iso };
}
