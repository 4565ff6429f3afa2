import type { engineInputs } from "../calendar/availability/engine-input";
import type { loadAvailability } from "../calendar/queries/availability";
import type { creationMessagesRead } from "../messages/queries/messages";
import type { Read } from "../db/reads";
import { applyBookingForm, FORM_FIELDS } from "../tenancy/rules/booking-form";
import { type MessageContext, type PaymentNote, settingsFrom } from "../messages/rules";
import type { PaymentTerms } from "../catalogue/rules/payment-policy";
import { policyOf } from "./rules/policy";
import type { Problem } from "../platform/rules/problems";
import type { BookingSubject, CreateRequest } from "./create";
import type { BookingDeps } from "./deps";
import { addressOf } from "../platform/rules/address";
import { recipient } from "./messages";
import type { BookingDetails, CustomerInput } from "./write";

const KNOWN_SOURCES = new Set([
  "widget",
  "website",
  "app",
  "phone",
  "walk_in",
  "facebook",
  "instagram",
  "google",
  "reserve_with_google",
  "api",
  "unknown",
]);

type Loaded = Awaited<ReturnType<typeof loadAvailability>>;
type Inputs = NonNullable<ReturnType<typeof engineInputs>>;
type Told = ReturnType<typeof creationMessagesRead> extends Read<infer A> ? A : never;

/**
 * What new bookings are written with besides their times, from the request
 * and the planning read: the booking details, the customer as stored and as
 * their messages reach them, and what the booking form refuses (422).
 * Shared by single and cart bookings and by a series.
 */
export function creationContext(
  deps: BookingDeps,
  req: CreateRequest,
  read: { loaded: Loaded; told: Told; inputs: Inputs; customerId: string; phone: string },
) {
  const { loaded, told, inputs, customerId, phone } = read;
  if (!loaded.newStatus)
    throw new Error(`workspace ${deps.scope.workspaceId} has no status of type new`);
  const form = applyBookingForm(loaded.bookingForm, {
    customer_email: req.customer.email,
    customer_last_name: req.customer.lastName,
    customer_middle_name: req.customer.middleName,
    booking_comment: req.publicNotes,
  });
  const formProblems: Problem<BookingSubject>[] = FORM_FIELDS.flatMap((field) => {
    const messages = form.errors[field];
    return messages ? [{ about: { is: "form", field } as const, messages }] : [];
  });

  const details: BookingDetails = {
    workspaceId: deps.scope.workspaceId,
    locationId: req.locationId,
    timezone: req.timezone ?? inputs.rules.timezone,
    status: loaded.newStatus,
    publicNotes: form.values.booking_comment ?? "",
    source: req.source && KNOWN_SOURCES.has(req.source) ? req.source : "unknown",
    customerBrowserTz: req.customerBrowserTz ?? null,
    customerBrowserLanguage: req.customerBrowserLanguage ?? null,
    bookingCallback: req.bookingCallback ?? false,
    googleMeetGuestEmails: req.googleMeetGuestEmails ?? null,
    policy: policyOf(inputs.location),
    visitor: req.visitor ?? null,
    // A customer's (publishable key) booking is told at what its own request gave, always.
    contact:
      req.caller === "customer"
        ? { firstName: req.customer.firstName, email: form.values.customer_email ?? null }
        : null,
  };
  const customer: CustomerInput = {
    id: customerId,
    isNew: loaded.customer === null,
    refreshesStored: req.caller === "staff",
    phone,
    firstName: req.customer.firstName,
    lastName: form.values.customer_last_name ?? null,
    middleName: form.values.customer_middle_name ?? null,
    email: form.values.customer_email ?? null,
  };
  const stored = loaded.customer;
  // The customer as this write leaves them; a customer's (publishable key) booking is then
  // told at its own contact instead (`recipient`), never at the stored e-mail or name.
  const messageContext: MessageContext = {
    settings: settingsFrom(told.settings),
    workspaceLocale: deps.render.locale,
    currency: deps.render.currency,
    customer: recipient(
      {
        id: customerId,
        firstName: stored && !customer.refreshesStored ? stored.firstName : customer.firstName,
        email:
          stored && !customer.refreshesStored
            ? stored.email
            : (customer.email ?? stored?.email ?? null),
        phone,
        locale: stored?.locale ?? req.customerBrowserLanguage ?? null,
        notifyEmail: stored?.notifyEmail ?? true,
        notifySms: stored?.notifySms ?? true,
      },
      {
        ownContact: details.contact !== null,
        contactFirstName: details.contact?.firstName ?? null,
        contactEmail: details.contact?.email ?? null,
        customerBrowserLanguage: details.customerBrowserLanguage,
      },
    ),
    location: {
      name: inputs.location.name,
      address: addressOf(inputs.location),
      timezone: inputs.rules.timezone,
    },
    total: 0,
    // Made from a paid checkout: the confirmation names what was paid and the fees, as the
    // reservation's terms (fixed when it was made, the terms the checkout charged) say.
    payment: req.paymentSettled ? paymentNote(loaded.reservation?.payment) : undefined,
  };
  return { formProblems, details, customer, messageContext };
}

/** What a booking paid at its checkout tells the customer (undefined: nothing was asked). */
export function paymentNote(terms: PaymentTerms | null | undefined): PaymentNote | undefined {
  if (!terms || terms.mode === "none") return undefined;
  return {
    paid: terms.mode === "deposit" || terms.mode === "prepay" ? terms.amount_due_now : 0,
    lateCancel: terms.late_cancel
      ? { windowMinutes: terms.late_cancel.window_minutes, fee: terms.late_cancel.fee }
      : null,
    noShowFee: terms.no_show_fee,
  };
}
