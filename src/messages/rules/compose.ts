import { formatMoney } from "../../platform/rules/money";
import { type Address, addressLine } from "../../platform/rules/address";
import { localDate, localTime } from "./format";
import type { Channel, MessageKind } from "./kinds";
import { BUILT_IN_LOCALES, type BuiltInLocale, formatLocale, localeChain } from "./locale";
import type { NotificationSettings } from "./settings";
import { linkFreeName } from "./public-name";
import type { SkipReason } from "./skip-reasons";
import { smsAllowed } from "./sms-country";
import { oneLine, renderTemplate } from "./template";
import { BUILT_IN_TEXTS } from "./texts";
import type { Values } from "./variables";
import { type FeeNote, feeReason, type PaymentNote, paymentText } from "./payment-note";

/** A booking as its messages tell it. */
export interface MessageBooking {
  id: string;
  startAt: number;
  serviceNames: string[];
  stafferFirstNames: string[];
  icalUrl: string;
  /** The manage link, or "" when none is wired. */
  manageUrl: string;
}

/** The customer a message goes to: where they can be reached and what they agreed to. */
export interface Recipient {
  id: string;
  firstName: string;
  email: string | null;
  phone: string | null;
  locale: string | null;
  notifyEmail: boolean;
  notifySms: boolean;
}

/** Everything a booking's messages are written from (one read with the booking). */
export interface MessageContext {
  settings: NotificationSettings;
  workspaceLocale: string;
  currency: string;
  customer: Recipient;
  /** The location's address (null: none), written on one line in each message's language. */
  location: { name: string; address: Address | null; timezone: string };
  /** The order's total, in minor units. */
  total: number;
  /** A waitlist offer: where it is booked, and until when it holds. */
  offer?: { url: string; expiresAt: number } | undefined;
  /** A booking paid at a checkout: what was paid online and its fees (`payment`). */
  payment?: PaymentNote | undefined;
  /** A fee charged (`payment-fee-charged`). */
  fee?: FeeNote | undefined;
  /**
   * A stranger caused the message (a publishable key, a manage or offer link)
   * or typed the name it greets: the first name is carried only when it
   * cannot be read as a link (`linkFreeName`), else the greeting has none.
   */
  fromStranger?: boolean | undefined;
}

/** A message to write: the row's content, before it has an id. */
export interface MessageDraft {
  kind: MessageKind;
  channel: Channel;
  to: string;
  locale: string;
  subject: string | null;
  body: string;
  status: "scheduled" | "skipped";
  /** Why a `skipped` draft is (null when scheduled). */
  skipReason: SkipReason | null;
  scheduledFor: number;
  bookingId: string;
}

const isBuiltIn = (tag: string): tag is BuiltInLocale =>
  (BUILT_IN_LOCALES as readonly string[]).includes(tag);

/** Where a channel reaches the customer, or null when it does not (no row at all then). */
function address(ctx: MessageContext, channel: Channel): string | null {
  const { settings, customer } = ctx;
  if (!settings[channel].enabled) return null;
  return (channel === "email" ? customer.email : customer.phone) || null;
}

const optedIn = (customer: Recipient, channel: Channel) =>
  channel === "email" ? customer.notifyEmail : customer.notifySms;

/**
 * The text of a kind on a channel, in the first language of the customer's
 * chain that has one: the workspace's own template, else the built-in text.
 */
export function writeMessage(
  kind: MessageKind,
  channel: Channel,
  ctx: MessageContext,
  bookings: readonly MessageBooking[],
): { locale: string; subject: string | null; body: string } {
  const chain = localeChain(ctx.customer.locale, ctx.workspaceLocale);
  const own = ctx.settings.templates[kind] ?? {};
  for (const tag of chain) {
    const template = own[tag];
    const builtIn = isBuiltIn(tag) ? BUILT_IN_TEXTS[kind][tag] : undefined;
    if (!template && !builtIn) continue;
    const values = valuesFor(ctx, bookings, formatLocale(chain, tag));
    const render = (text: string) => withoutNoName(renderTemplate(text, values));
    if (template) {
      // A template without a subject keeps the built-in subject of the nearest language after it.
      const nearest = chain.slice(chain.indexOf(tag)).find(isBuiltIn) ?? "en";
      const subject = template.subject ?? BUILT_IN_TEXTS[kind][nearest].subject;
      return {
        locale: tag,
        subject: channel === "email" ? oneLine(render(subject)) : null,
        body: render(template.body),
      };
    }
    if (builtIn)
      return {
        locale: tag,
        subject: channel === "email" ? oneLine(render(builtIn.subject)) : null,
        // A paragraph whose variable is empty (`payment` without a payment) leaves no blank gap.
        body: render(channel === "email" ? builtIn.body : builtIn.sms).replace(/\n{3,}/g, "\n\n"),
      };
  }
  throw new Error("the locale chain always ends in en");
}

/**
 * Stands for a first name a stranger's message may not carry while the text
 * is rendered; then it goes, with the space before it ("Hello {{name}}," →
 * "Hello,"), in every language's greeting. A private-use character: no value
 * a workspace or a customer gives is meant to hold one.
 */
const NO_NAME = "\uE000";
const withoutNoName = (text: string) => text.replace(/[ \u00A0]?\uE000/gu, "");

/** The first name a message greets with (NO_NAME when a stranger's may not be carried). */
const greetedName = (ctx: MessageContext) =>
  ctx.fromStranger ? (linkFreeName(ctx.customer.firstName) ?? NO_NAME) : ctx.customer.firstName;

/** The variables' values for these bookings (a cart: every item), written in `locale`. */
export function valuesFor(
  ctx: MessageContext,
  bookings: readonly MessageBooking[],
  locale: string,
): Values {
  const zone = ctx.location.timezone;
  const first = bookings[0];
  const unique = (names: string[]) => [...new Set(names)].join(", ");
  const line = (b: MessageBooking) =>
    `${localDate(b.startAt, zone, locale)}, ${localTime(b.startAt, zone, locale)}: ${unique(b.serviceNames)}` +
    (b.stafferFirstNames.length > 0 ? ` (${unique(b.stafferFirstNames)})` : "");
  return {
    customer_first_name: greetedName(ctx),
    service_names: unique(bookings.flatMap((b) => b.serviceNames)),
    staffer_first_name: unique(bookings.flatMap((b) => b.stafferFirstNames)),
    location_name: ctx.location.name,
    location_address: addressLine(ctx.location.address, locale),
    date: first ? localDate(first.startAt, zone, locale) : "",
    time: first ? localTime(first.startAt, zone, locale) : "",
    items: bookings.map(line).join("\n"),
    total: formatMoney(ctx.total, ctx.currency, locale),
    manage_url: first?.manageUrl ?? "",
    ical_url: first?.icalUrl ?? "",
    offer_url: ctx.offer?.url ?? "",
    offer_expires: ctx.offer ? localTime(ctx.offer.expiresAt, zone, locale) : "",
    payment: paymentText(ctx.payment, ctx.currency, locale),
    fee: ctx.fee ? formatMoney(ctx.fee.amount, ctx.currency, locale) : "",
    fee_reason: ctx.fee ? feeReason(ctx.fee.kind, locale) : "",
  };
}

/** Why a message is not to go out whoever caused it (null: it goes, bounds aside). */
function skipped(ctx: MessageContext, channel: Channel, to: string): SkipReason | null {
  if (!optedIn(ctx.customer, channel)) return "opted_out";
  if (channel === "sms" && !smsAllowed(to, ctx.settings.sms_countries)) return "sms_country";
  return null;
}

function draft(
  kind: MessageKind,
  channel: Channel,
  to: string,
  ctx: MessageContext,
  bookings: readonly MessageBooking[],
  scheduledFor: number,
): MessageDraft {
  const text = writeMessage(kind, channel, ctx, bookings);
  const skipReason = skipped(ctx, channel, to);
  return {
    kind,
    channel,
    to,
    ...text,
    status: skipReason ? "skipped" : "scheduled",
    skipReason,
    scheduledFor,
    bookingId: bookings[0]?.id ?? "",
  };
}

/**
 * A message sent now about these bookings (one for a whole cart), one per
 * enabled channel that reaches the customer; `skipped` where they opted out.
 */
export function announce(
  kind: MessageKind,
  ctx: MessageContext,
  bookings: readonly MessageBooking[],
  now: number,
): MessageDraft[] {
  if (bookings.length === 0) return [];
  return (["email", "sms"] as const).flatMap((channel) => {
    const to = address(ctx, channel);
    return to ? [draft(kind, channel, to, ctx, bookings, now)] : [];
  });
}

/**
 * A booking's reminders, each at start − minutes_before on its channel; a
 * reminder whose time has already come is not written at all.
 */
export function remind(ctx: MessageContext, booking: MessageBooking, now: number): MessageDraft[] {
  return ctx.settings.reminders.flatMap(({ channel, minutes_before }) => {
    const at = booking.startAt - minutes_before * 60_000;
    const to = address(ctx, channel);
    return to && at > now ? [draft("booking-reminder", channel, to, ctx, [booking], at)] : [];
  });
}
