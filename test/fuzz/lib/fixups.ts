import fc from "fast-check";
import type { Kind } from "./world";

/**
 * Cross-field rules that a JSON Schema cannot state and the documents give in
 * prose ("exactly one of", "required when", "after starts_at", "the seller
 * must work there"). Applied to a freshly generated valid body so that the
 * success paths are reached; keyed by component name, so a renamed schema just
 * loses its fixup (the statistics then show its success rate drop) instead of
 * breaking the fuzz.
 */

type Body = Record<string, unknown>;
type Draw = fc.GeneratorValue;
/** A valid id of a kind: the arbitraries' choice, or only the fixture's records. */
export type Pick = (kind: Kind, fixedOnly?: boolean) => string;

const DAY = 86_400_000;
const MINUTE = 60_000;
const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");
const isObject = (v: unknown): v is Body =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function dateRange(b: Body, g: Draw, maxDays: number) {
  const start = typeof b.range_start === "string" ? b.range_start.slice(0, 10) : "2030-03-04";
  const days = g(fc.integer, { min: 0, max: maxDays });
  b.range_start = start;
  b.range_end = iso(Date.parse(`${start}T00:00:00Z`) + days * DAY).slice(0, 10);
}

/**
 * HH:MM intervals made valid: start before end, and no two of one group
 * (weekday and location, or one override's day) overlapping.
 */
function disjoint(intervals: unknown[], group: (i: Body) => string): Body[] {
  const ends = new Map<string, string>();
  const kept: Body[] = [];
  const sorted = intervals
    .filter(isObject)
    .map((i) => {
      if (typeof i.start === "string" && typeof i.end === "string" && i.start >= i.end)
        [i.start, i.end] = i.start === i.end ? ["09:00", "17:00"] : [i.end, i.start];
      return i;
    })
    .sort((a, b) => String(a.start).localeCompare(String(b.start)));
  for (const i of sorted) {
    const key = group(i);
    if (String(i.start) < (ends.get(key) ?? "")) continue;
    ends.set(key, String(i.end));
    kept.push(i);
  }
  return kept;
}

function schedule(b: Body, intervalsKey: "schedule" | "intervals") {
  if (Array.isArray(b[intervalsKey]))
    b[intervalsKey] = disjoint(
      b[intervalsKey] as unknown[],
      (i) => `${i.location_uuid}|${i.weekday}`,
    );
  if (Array.isArray(b.overrides)) {
    const seen = new Set<string>();
    b.overrides = b.overrides.filter((o) => {
      if (!isObject(o)) return false;
      const key = `${o.location_uuid}|${o.date}`;
      if (seen.has(key)) return false;
      seen.add(key);
      if (Array.isArray(o.intervals)) o.intervals = disjoint(o.intervals, () => "");
      return true;
    });
  }
}

function orderTerms(b: Body, g: Draw, pick: Pick) {
  // The seller (a fixture staffer with access-pos) works at the fixture's main location.
  b.location_uuid = pick("location", true);
  const lines = ["goods", "services", "vouchers"].flatMap((k) => list(b[k]).filter(isObject));
  const base = lines.reduce(
    (sum, l) =>
      sum +
      (typeof l.price === "number" ? l.price : 0) *
        (typeof l.quantity === "number" ? l.quantity : 0),
    0,
  );
  if (b.discount_mode === "percent") {
    if (b.discount_percent === undefined) b.discount_percent = g(fc.integer, { min: 0, max: 100 });
    delete b.discount_amount;
  } else {
    delete b.discount_percent;
    if (b.discount_mode === "fixed" && b.discount_amount === undefined) b.discount_amount = 0;
  }
  if (typeof b.discount_amount === "number") b.discount_amount = Math.min(b.discount_amount, base);
  if (b.promocode === undefined) delete b.promocode_discount_amount;
  else if (b.promocode_discount_amount !== undefined) b.promocode_discount_amount = 0;
  // An order issues at most 100 vouchers (one per unit of its voucher lines, at most 100 lines).
  const vouchers = list(b.vouchers).filter(isObject);
  const units = vouchers.reduce((n, l) => n + (typeof l.quantity === "number" ? l.quantity : 0), 0);
  if (units > 100) for (const l of vouchers) l.quantity = 1;
  // Random codes name no voucher: mostly pay without them, so the payment itself gets exercised.
  if (g(fc.nat, { max: 3 }) !== 0) delete b.payment_vouchers;
}

/** Random voucher codes name no voucher: mostly leave them out so the payment goes through. */
function mostlyWithoutVouchers(b: Body, g: Draw, pick: Pick) {
  if (g(fc.nat, { max: 3 }) !== 0) delete b.vouchers;
  // Without vouchers the account pays it all, so it must be named.
  b.account_uuid ??= pick("account", true);
}

/** Mostly a short list of the fixture's services and staff, which can all be booked; sometimes as generated. */
function fixtureServices(b: Body, g: Draw, pick: Pick) {
  if (g(fc.nat, { max: 3 }) === 0) return;
  b.services = list(b.services)
    .slice(0, 3)
    .filter(isObject)
    .map((s) => ({
      ...s,
      service_uuid: pick("service", true),
      ...(s.staffer_uuid ? { staffer_uuid: pick("staffer", true) } : {}),
    }));
}

const notifyNeedsEmails = (b: Body) => {
  if (b.send_notification === true && !b.emails) b.emails = "ops@example.com";
};

export const FIXUPS: Record<string, (b: Body, g: Draw, pick: Pick) => void> = {
  CreateBlockedSpot(b, g, pick) {
    b.location_uuid = pick("location", true);
    if (typeof b.starts_at === "string")
      b.ends_at = iso(Date.parse(b.starts_at) + g(fc.integer, { min: 1, max: 16 }) * 15 * MINUTE);
  },
  CartCalendar(b, g, pick) {
    dateRange(b, g, 6);
    fixtureServices(b, g, pick);
  },
  CartNextSlot: (b, g, pick) => fixtureServices(b, g, pick),
  // A made-up reservation is always refused (422): mostly book without one.
  CreateBooking(b, g) {
    if (g(fc.nat, { max: 3 }) !== 0) delete b.reservation_uuid;
  },
  // Random text is never a rule (422): mostly a rule every start is an occurrence of.
  CreateBookingSeries(b, g) {
    if (g(fc.nat, { max: 3 }) === 0) return;
    const freq = g(fc.constantFrom, "DAILY", "WEEKLY", "MONTHLY");
    b.recurrence = { rule: `FREQ=${freq};COUNT=${g(fc.integer, { min: 2, max: 4 })}` };
  },
  CreateCartBooking(b, g, pick) {
    if (g(fc.nat, { max: 3 }) !== 0) delete b.reservation_uuid;
    // Mostly a cart that fits a working day with the fixture's staff; sometimes as generated.
    if (g(fc.nat, { max: 3 }) === 0) return;
    b.location_uuid = pick("location", true);
    b.items = list(b.items)
      .slice(0, 2)
      .filter(isObject)
      .map((item) => ({
        ...item,
        services: list(item.services)
          .slice(0, 2)
          .filter(isObject)
          .map((s) => ({
            ...s,
            service_uuid: pick("service", true),
            ...(s.staffer_uuid ? { staffer_uuid: pick("staffer", true) } : {}),
          })),
      }));
  },
  "query:GET public:/locations/{location_uuid}/time-slots": (b, g) => dateRange(b, g, 6),
  CreatePromocode(b, g) {
    if (g(fc.boolean)) {
      delete b.discount_amount;
      b.discount_percent ??= g(fc.integer, { min: 1, max: 100 });
    } else {
      delete b.discount_percent;
      b.discount_amount ??= g(fc.integer, { min: 1, max: 10_000 });
    }
  },
  CreateGood(b, g, pick) {
    if (b.is_payable === true && b.price === undefined)
      b.price = g(fc.integer, { min: 0, max: 100_000 });
    if (b.is_consumable === true && b.consumable_unit === undefined) b.consumable_unit = b.unit;
    if (b.consumable_unit !== undefined && b.consumable_unit !== b.unit)
      b.quantity_in_unit ??= g(fc.integer, { min: 1, max: 1000 });
    const stock = b.initial_stock;
    if (isObject(stock) && stock.is_set === true) {
      stock.location_uuid ??= pick("location");
      stock.unit_price ??= g(fc.integer, { min: 0, max: 10_000 });
      stock.quantity ??= g(fc.integer, { min: 0, max: 100 });
    }
  },
  CreateService(b, g, pick) {
    if (
      typeof b.price === "number" &&
      typeof b.price_discount === "number" &&
      b.price_discount >= b.price
    ) {
      if (b.price === 0) delete b.price_discount;
      else b.price_discount = Math.floor(b.price / 2);
    }
    // Staffers must work at the service's locations: keep to the main location and its staff.
    if (Array.isArray(b.location_uuids)) b.location_uuids = [pick("location", true)];
    if (Array.isArray(b.staffer_uuids))
      b.staffer_uuids = g(fc.boolean)
        ? []
        : [...new Set([pick("staffer", true), pick("staffer", true)])];
  },
  CreateStaffer(b) {
    schedule(b, "schedule");
    // Schedules may name only locations the staffer is attached to.
    const used = [...list(b.schedule), ...list(b.overrides)]
      .map((i) => (isObject(i) ? i.location_uuid : undefined))
      .filter((x): x is string => typeof x === "string");
    if (Array.isArray(b.location_uuids))
      b.location_uuids = [...new Set([...b.location_uuids, ...used])].slice(0, 100);
  },
  StafferSchedule(b, _g, pick) {
    // The schedulable fixture staffer works at the main location only in its schedule.
    const main = pick("location", true);
    for (const i of [...list(b.intervals), ...list(b.overrides)])
      if (isObject(i)) i.location_uuid = main;
    schedule(b, "intervals");
  },
  CreateWebhook: notifyNeedsEmails,
  UpdateWebhook: notifyNeedsEmails,
  CreateOrder(b, g, pick) {
    if (!["goods", "services", "vouchers"].some((k) => list(b[k]).length))
      b.goods = [{ good_uuid: pick("good", true), price: 1250, quantity: 1 }];
    orderTerms(b, g, pick);
  },
  CalculateOrder: orderTerms,
  PayOrder: mostlyWithoutVouchers,
  CompleteBookingWithVouchers: mostlyWithoutVouchers,
};
