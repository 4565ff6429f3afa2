import { z } from "@hono/zod-openapi";
import { FORM_FIELDS } from "../rules/booking-form";

export const FieldModeSchema = z
  .enum(["required", "optional", "hidden"], {
    message: "Must be one of required, optional, hidden.",
  })
  .openapi("BookingFormFieldMode", {
    description:
      "required: a booking without the field is refused (422 on it); optional: stored when sent; hidden: ignored when sent, never stored",
  });

export const BookingFormSchema = z
  .object({
    customer_email: FieldModeSchema,
    customer_last_name: FieldModeSchema,
    customer_middle_name: FieldModeSchema,
    booking_comment: FieldModeSchema,
  })
  .openapi("BookingForm");

export type BookingFormBody = z.infer<typeof BookingFormSchema>;

// The schema and the domain's field list must name the same fields.
FORM_FIELDS satisfies readonly (keyof BookingFormBody)[];
