/** How the booking form treats one optional field of a booking request. */
export type FieldMode = "required" | "optional" | "hidden";

export const FORM_FIELDS = [
  "customer_email",
  "customer_last_name",
  "customer_middle_name",
  "booking_comment",
] as const;

export type FormField = (typeof FORM_FIELDS)[number];

export type BookingForm = Record<FormField, FieldMode>;

export const DEFAULT_FORM: BookingForm = {
  customer_email: "optional",
  customer_last_name: "optional",
  customer_middle_name: "optional",
  booking_comment: "optional",
};

export type FormValues = Partial<Record<FormField, string | undefined>>;

/**
 * Applies the form to what a booking request sent: a required field missing
 * (absent or blank) is an error on that field, a hidden field is dropped so
 * it is never stored, and an optional one passes as sent.
 */
export function applyBookingForm(
  form: BookingForm,
  values: FormValues,
): { values: FormValues; errors: Partial<Record<FormField, string[]>> } {
  const kept: FormValues = {};
  const errors: Partial<Record<FormField, string[]>> = {};
  for (const field of FORM_FIELDS) {
    const value = values[field];
    const mode = form[field];
    if (mode === "hidden") continue;
    if (mode === "required" && (value === undefined || value.trim() === "")) {
      errors[field] = ["This field is required by the workspace's booking form."];
      continue;
    }
    if (value !== undefined) kept[field] = value;
  }
  return { values: kept, errors };
}
