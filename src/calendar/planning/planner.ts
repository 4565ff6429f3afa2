import { ownerColumns } from "../ids";
import type { services as servicesTable } from "../../db/schema";
import {
  type BusyInterval,
  checkStart,
  findCartStart,
  type LocationRules,
  type ResourceInput,
  type SessionSeats,
  sessionAskOf,
  sessionKey,
  type StafferCalendarInput,
} from "../rules";
import { bufferOf, effectivePrice } from "../../catalogue/rules/service-terms";
import { busyEnd } from "../../platform/rules/duration";
import type { ItemSubject } from "../../platform/rules/problems";
import { ApiError, type InvalidError, invalid } from "../../platform/errors";
import type { PlanIds } from "./plan-ids";

/** One unit of a resource a service takes, with the id of its calendar entry. */
export interface PlannedUnit {
  entryId: string;
  /** The unit's calendar id (`resourceId#unit`). */
  calendarId: string;
  resourceId: string;
  unit: number;
}

/** A booking about to be written: ids are chosen up front so claims and rows share them. */
export interface PlannedService {
  /** booking_services id, also the calendar entry id of its busy time. */
  id: string;
  serviceId: string;
  stafferId: string;
  position: number;
  name: string;
  start: number;
  end: number;
  duration: number;
  buffer: number;
  price: number;
  originalPrice: number;
  taxName: string | null;
  taxRateBp: number | null;
  /** One unit of every resource the service needs, for its duration and buffer. */
  units: PlannedUnit[];
  /** Seats booked (1 unless a group service); the price is per seat. */
  quantity: number;
  /** A group service's session at its start: its staffer's and units' entries share it. */
  session?: SessionSeats | undefined;
}

export interface PlannedBooking {
  id: string;
  services: PlannedService[];
}

export const bookingStart = (b: PlannedBooking) => Math.min(...b.services.map((s) => s.start));
export const bookingEnd = (b: PlannedBooking) => Math.max(...b.services.map((s) => s.end));

type ServiceRow = typeof servicesTable.$inferSelect;

export interface PlanItem {
  start: number;
  /** `quantity`: seats of a group service (1..capacity, default 1). */
  services: { serviceId: string; stafferId?: string; quantity?: number | undefined }[];
}

export interface PlanContext {
  rules: LocationRules;
  services: Map<string, ServiceRow>;
  performersOf: (serviceId: string) => StafferCalendarInput[];
  /** Resources present at the location, their units tried in order. */
  resources: ResourceInput[];
  /** The resources a service needs. */
  resourcesOf: (serviceId: string) => string[];
  now: number;
  /** A staff write planning over publishable keys' holds: their time counts as free. */
  overHolds?: boolean;
  /** Ids for the planned rows; `stableIds()` when the write may plan again (see there). */
  ids?: PlanIds;
}

const freshIds: PlanIds = () => crypto.randomUUID();

/**
 * Places every item on staff calendars (fixed staffers or auto-allocated ones),
 * items one after another so a staffer used by an earlier item is busy for the
 * later ones. Throws 422 about the item's start (`InvalidError`) for times no
 * staffer works or in the past, 409 when the time is taken.
 */
export function planItems(items: PlanItem[], ctx: PlanContext): PlannedBooking[] {
  return items.map(placer(ctx));
}

/**
 * Places items one at a time on the same copies of the calendars: each
 * placed item's time is busy for the next. Throws as `planItems` does for an
 * item that does not fit, which leaves the calendars as they were, so the
 * caller may go on with the next item (a series skipping an occurrence).
 */
export function placer(ctx: PlanContext): (item: PlanItem, k: number) => PlannedBooking {
  const ids = ctx.ids ?? freshIds;
  // Copies: time placed for earlier items must count as busy for later ones.
  const busyCopy = (busy: BusyInterval[]) =>
    ctx.overHolds ? busy.filter((b) => !b.yields) : [...busy];
  const calendars = new Map<string, StafferCalendarInput>();
  const calendarOf = (c: StafferCalendarInput) => {
    let copy = calendars.get(c.id);
    if (!copy) {
      copy = { ...c, busy: busyCopy(c.busy) };
      calendars.set(c.id, copy);
    }
    return copy;
  };

  const resources = ctx.resources.map((r) => ({
    id: r.id,
    units: r.units.map((u) => ({ id: u.id, busy: busyCopy(u.busy) })),
  }));
  const unitBusy = new Map(resources.flatMap((r) => r.units.map((u) => [u.id, u.busy] as const)));

  return (item, k) => {
    const services = item.services.map((s) => {
      const row = ctx.services.get(s.serviceId);
      if (!row) throw new Error(`service ${s.serviceId} was not loaded`);
      const performers = ctx.performersOf(s.serviceId).map(calendarOf);
      const candidates = s.stafferId ? performers.filter((p) => p.id === s.stafferId) : performers;
      return { row, candidates, quantity: s.quantity ?? 1 };
    });
    const staffers = [...new Set(services.flatMap((s) => s.candidates))];
    const placed = findCartStart({
      location: ctx.rules,
      services: services.map((s) => ({
        durationMin: s.row.duration,
        bufferMin: bufferOf(s.row),
        stafferIds: s.candidates.map((c) => c.id),
        resourceIds: ctx.resourcesOf(s.row.id),
        session: sessionAskOf(s.row, s.quantity),
      })),
      staffers,
      resources,
      start: item.start,
      now: ctx.now,
    });
    if (!placed) throw whyNot(item, k, services[0], ctx);
    const booking: PlannedBooking = {
      id: ids(`booking ${k}`),
      services: placed.map((p, position) => {
        const row = services[position]?.row;
        const quantity = services[position]?.quantity ?? 1;
        if (!row) throw new Error("placement does not match the services");
        const buffer = bufferOf(row);
        const ask = sessionAskOf(row, quantity);
        const session: SessionSeats | undefined = ask && {
          key: sessionKey(row.id, p.stafferId, p.start),
          seats: quantity,
          capacity: ask.capacity,
        };
        const busy: BusyInterval = {
          start: p.start,
          end: busyEnd(p.end, buffer),
          kind: "booking",
          ...(session ? { session } : {}),
        };
        calendars.get(p.stafferId)?.busy.push(busy);
        for (const unitId of p.unitIds) unitBusy.get(unitId)?.push(busy);
        return {
          id: ids(`service ${k}.${position}`),
          serviceId: row.id,
          stafferId: p.stafferId,
          position,
          name: row.name,
          start: p.start,
          end: p.end,
          duration: row.duration,
          buffer,
          price: effectivePrice(row),
          originalPrice: row.price,
          taxName: row.taxName,
          taxRateBp: row.taxRateBp,
          quantity,
          session,
          units: p.unitIds.map((calendarId) =>
            plannedUnit(
              calendarId,
              ids(`unit ${k}.${position} ${ownerColumns(calendarId).resourceId ?? ""}`),
            ),
          ),
        };
      }),
    };
    return booking;
  };
}

export function plannedUnit(
  calendarId: string,
  entryId: string = crypto.randomUUID(),
): PlannedUnit {
  const { resourceId, unit } = ownerColumns(calendarId);
  if (!resourceId || unit == null) throw new Error(`${calendarId} is not a resource unit`);
  return { entryId, calendarId, resourceId, unit };
}

/** The most useful reason an item cannot be placed, judged on its first service. */
function whyNot(
  item: PlanItem,
  index: number,
  first: { row: ServiceRow; candidates: StafferCalendarInput[]; quantity: number } | undefined,
  ctx: PlanContext,
): ApiError | InvalidError<ItemSubject> {
  const start = { is: "start", item: index } as const;
  if (!first || first.candidates.length === 0) {
    return invalid(start, "No staffer can perform this service here at that time.");
  }
  const verdicts = first.candidates.map((staffer) =>
    checkStart({
      location: ctx.rules,
      staffer,
      durationMin: first.row.duration,
      bufferMin: bufferOf(first.row),
      start: item.start,
      now: ctx.now,
      session: sessionAskOf(first.row, first.quantity),
    }),
  );
  if (verdicts.every((v) => v === "in_past")) {
    return invalid(start, "The time is in the past or inside the minimum notice.");
  }
  // Only full sessions where a staffer is free otherwise: the seats are what is missing.
  if (verdicts.some((v) => v === "full") && !verdicts.some((v) => v === "busy")) {
    return new ApiError("session_full", "The session has fewer seats left than asked for.");
  }
  if (verdicts.some((v) => v === "busy" || v === "ok" || v === "full")) {
    return new ApiError("slot_unavailable", "The requested time is not available.");
  }
  return invalid(start, "The time is outside the working hours of every eligible staffer.");
}
