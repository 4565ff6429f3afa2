import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  applyBookingForm,
  type BookingForm,
  DEFAULT_FORM,
  type FieldMode,
  FORM_FIELDS,
} from "../../src/tenancy/rules/booking-form";

const sent = {
  customer_email: "anna@example.com",
  customer_last_name: "Berg",
  customer_middle_name: "Maria",
  booking_comment: "Window seat",
};

const arbMode = fc.constantFrom<FieldMode>("required", "optional", "hidden");
const arbForm = fc.record<BookingForm>({
  customer_email: arbMode,
  customer_last_name: arbMode,
  customer_middle_name: arbMode,
  booking_comment: arbMode,
});
const arbValue = fc.option(fc.constantFrom("", "  ", "x", "anna@example.com"), {
  nil: undefined,
});
const arbValues = fc.record({
  customer_email: arbValue,
  customer_last_name: arbValue,
  customer_middle_name: arbValue,
  booking_comment: arbValue,
});

describe("applyBookingForm", () => {
  it("the default form passes everything through, and nothing is required", () => {
    expect(applyBookingForm(DEFAULT_FORM, sent)).toEqual({ values: sent, errors: {} });
    expect(applyBookingForm(DEFAULT_FORM, {})).toEqual({ values: {}, errors: {} });
  });

  it("a required field absent or blank is an error on that field only", () => {
    const form = { ...DEFAULT_FORM, customer_email: "required" as const };
    expect(applyBookingForm(form, { customer_last_name: "Berg" }).errors).toEqual({
      customer_email: ["This field is required by the workspace's booking form."],
    });
    expect(Object.keys(applyBookingForm(form, { customer_email: "  " }).errors)).toEqual([
      "customer_email",
    ]);
    expect(applyBookingForm(form, sent)).toEqual({ values: sent, errors: {} });
  });

  it("a hidden field sent is dropped, never an error", () => {
    const form = { ...DEFAULT_FORM, booking_comment: "hidden" as const };
    const { values, errors } = applyBookingForm(form, sent);
    expect(errors).toEqual({});
    expect(values).toEqual({ ...sent, booking_comment: undefined });
    expect("booking_comment" in values).toBe(false);
  });

  it("property: hidden never kept, required kept or an error, optional kept as sent", () => {
    fc.assert(
      fc.property(arbForm, arbValues, (form, values) => {
        const result = applyBookingForm(form, values);
        for (const field of FORM_FIELDS) {
          const value = values[field];
          const missing = value === undefined || value.trim() === "";
          switch (form[field]) {
            case "hidden":
              expect(result.values[field]).toBeUndefined();
              expect(result.errors[field]).toBeUndefined();
              break;
            case "required":
              expect(result.errors[field] !== undefined).toBe(missing);
              expect(result.values[field]).toBe(missing ? undefined : value);
              break;
            case "optional":
              expect(result.errors[field]).toBeUndefined();
              expect(result.values[field]).toBe(value);
          }
        }
      }),
    );
  });
});
