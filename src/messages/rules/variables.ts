/**
 * The variables a template may name in `{{…}}`, and what each holds. The
 * list is closed: a template naming anything else is refused when saved.
 */
export const VARIABLES = {
  customer_first_name: "The customer's first name",
  service_names: "The booked services, comma-separated (every item of a cart)",
  staffer_first_name: "The first name of the staffer (several: comma-separated)",
  location_name: "The location's name",
  location_address:
    "The location's address on one line (\"line1, line2, postal code city, country\", the country named in the message's language); empty when the location has none",
  date: "The local date of the (first) booking, with its weekday, in the location's time zone",
  time: "The local start time of the (first) booking, in the location's time zone",
  items: "One line per booking of a cart or of a series change: date, time, services and staffer",
  total: "The order's total with its currency",
  manage_url: "A link where the customer sees, moves or cancels the booking (empty if none)",
  ical_url: "A link to the booking as a calendar file (.ics)",
  offer_url: "Waitlist offers: a link where the customer books the offered time (empty otherwise)",
  offer_expires: "Waitlist offers: the local time until which the offer holds (empty otherwise)",
  payment:
    "Confirmations: what was paid online and what a late cancel or a no-show costs (empty when the booking takes no money online)",
  fee: "Fees charged: the fee with its currency (empty otherwise)",
  fee_reason: "Fees charged: why, e.g. a late cancellation or a no-show (empty otherwise)",
} as const;

export type Variable = keyof typeof VARIABLES;
export type Values = Record<Variable, string>;

export const isVariable = (name: string): name is Variable => Object.hasOwn(VARIABLES, name);
