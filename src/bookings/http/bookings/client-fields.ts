import type { z } from "@hono/zod-openapi";
import type { CreateRequest } from "../../create";
import type { CustomerFields } from "./schema";

type ClientFields = z.infer<z.ZodObject<typeof CustomerFields>>;

/** The customer and client fields single and cart bookings share, in the shape the writer takes. */
export function clientFields(
  body: ClientFields,
): Omit<CreateRequest, "country" | "locationId" | "items" | "fields" | "caller"> {
  return {
    customer: {
      phone: body.customer_phone,
      firstName: body.customer_first_name,
      lastName: body.customer_last_name,
      middleName: body.customer_middle_name,
      email: body.customer_email,
    },
    timezone: body.timezone,
    publicNotes: body.booking_comment,
    source: body.source,
    customerBrowserTz: body.customer_browser_tz,
    customerBrowserLanguage: body.customer_browser_language,
    bookingCallback: body.booking_callback,
    googleMeetGuestEmails: body.booking_google_meet_guest_emails,
  };
}
