import { engineInputs } from "../../calendar/availability/engine-input";
import { commitPlanned, staffClaims } from "../../calendar/client";
import { availabilityRead, shiftDate } from "../../calendar/queries/availability";
import { creationMessagesRead } from "../../messages/queries/messages";
import { readTogether } from "../../db/reads";
import { configOf } from "../../platform/config";
import { customerIdFor } from "../../platform/rules/customer-id";
import { normalisePhone } from "../../platform/rules/phone";
import type { Problem } from "../../platform/rules/problems";
import { expandSeries, formatRule, parseRule, seriesDateSpan } from "../rules";
import { ApiError, InvalidError, invalid } from "../../platform/errors";
import { SlotTakenError } from "../../calendar/slot-taken";
import { probe, rendezvous } from "../../platform/failpoints";
import { claimsFor } from "../../calendar/planning/calendar-entries";
import { ClaimRetries } from "../../calendar/planning/claim-retries";
import type { CreditBookingSubject, CreateRequest } from "../create";
import { bookingCredits } from "../../packages/booking-credits";
import { creditAsks, namedPackagesRead } from "../../packages/credit-asks";
import { bookingStart } from "../../calendar/planning/planner";
import { creationContext } from "../create-context";
import type { BookingDeps } from "../deps";
import { creationMessages } from "../messages";
import type { PlanContext } from "../../calendar/planning/planner";
import { stableIds } from "../../calendar/planning/plan-ids";
import { itemProblems } from "../../calendar/planning/prepare";
import { bookingWrite } from "../write";
import { planSeriesAround, type SeriesPlan, alternativesOfUnbooked } from "./plan";

/** Alternatives are looked for a week either side of an occurrence: read that much around the series. */
const READ_BEFORE_DAYS = 9;
/** A booking may run past its day (long services) and alternatives a week after: read that much after. */
const READ_AFTER_DAYS = 14;

export interface SeriesRequest extends Omit<
  CreateRequest,
  "items" | "reservationId" | "visitor" | "caller"
> {
  /** The first start (the body's reserved_on). */
  start: number;
  serviceId: string;
  stafferId?: string | undefined;
  /** Seats of a group service in every occurrence (default 1). */
  quantity?: number | undefined;
  /** The customer package whose credits pay for every occurrence (one each, all or nothing). */
  packageId?: string | undefined;
  /** The RRULE as sent. */
  rule: string;
  /** reject: all or nothing (409 with every conflict); skip: book what fits. */
  onConflict: "reject" | "skip";
}

/** What a series request can be wrong about: a booking's subjects, and its rule. */
export type SeriesSubject = CreditBookingSubject | { is: "rule" };

/**
 * Books a recurring series: every occurrence of the rule checked by the
 * single booking's engine, claimed in one claim per calendar (all of that
 * calendar's occurrences together) and written in one D1 batch with the
 * series row, an order per occurrence, their events and the customer's
 * messages (one confirmation listing every date, reminders per occurrence).
 * As a single booking: 2 D1 round trips (one read, one write) after auth and
 * one claim per calendar. A secret key's write (staff): the series is
 * never offered to publishable keys.
 */
export async function createSeries(deps: BookingDeps, req: SeriesRequest) {
  const { scope, env } = deps;
  const workspaceId = scope.workspaceId;
  const rule = parseRule(req.rule);
  if (typeof rule === "string") throw invalid({ is: "rule" }, rule);
  const phone = normalisePhone(req.customer.phone, req.country);
  if (!phone) throw invalid({ is: "phone" }, "Must be a valid phone number.");
  // A new customer's id; one found by phone keeps the id it has.
  const newCustomerId = await customerIdFor(workspaceId, phone, configOf(env).customerIdSecret);

  // The location's zone comes with this read: its dates are every date the series can reach.
  const span = seriesDateSpan(rule, req.start);
  const { loaded, told, packages } = await readTogether(scope.db, {
    loaded: availabilityRead(scope, {
      locationId: req.locationId,
      serviceIds: [req.serviceId],
      fromDate: shiftDate(span.from, -READ_BEFORE_DAYS),
      toDate: shiftDate(span.to, READ_AFTER_DAYS),
      customerPhone: phone,
    }),
    told: creationMessagesRead(scope, req.locationId),
    packages: namedPackagesRead(scope, [req.packageId]),
  });
  const customerId = loaded.customer?.id ?? newCustomerId;
  const inputs = engineInputs(loaded);
  if (!inputs) throw invalid({ is: "location" }, "Unknown location.");
  const starts = expandSeries(rule, req.start, inputs.rules.timezone);
  if (typeof starts === "string") throw invalid({ is: "rule" }, starts);

  const create: CreateRequest = { ...req, items: [], caller: "staff" };
  const { formProblems, details, customer, messageContext } = creationContext(deps, create, {
    loaded,
    told,
    inputs,
    customerId,
    phone,
  });
  const first = {
    start: req.start,
    services: [{ serviceId: req.serviceId, stafferId: req.stafferId, quantity: req.quantity }],
  };
  // Every occurrence asks its own credit (all or nothing), each lasting past its start;
  // each names the body's one field, so the asks are counted as one item's.
  const occurrences = starts.map((start) => ({
    start,
    services: [{ ...first.services[0], serviceId: req.serviceId, packageId: req.packageId }],
  }));
  const asks = creditAsks(occurrences);
  const credits = bookingCredits(asks, {
    packages,
    customerId: loaded.customer?.id ?? null,
    now: Date.now(),
  });
  const problems: Problem<SeriesSubject>[] = [
    ...formProblems,
    ...itemProblems([first], loaded, inputs),
    ...credits.problems.slice(0, 1).map((p) => ({ ...p, about: { ...p.about, item: 0 } })),
  ];
  if (problems.length > 0) throw new InvalidError(problems);
  if (credits.refusal) throw credits.refusal;

  const now = Date.now();
  const ctx: PlanContext = {
    rules: inputs.rules,
    services: new Map(loaded.services.map((s) => [s.id, s])),
    performersOf: inputs.performersOf,
    resources: inputs.resources,
    resourcesOf: inputs.resourcesOf,
    now,
    ids: stableIds(),
  };
  const service = { serviceId: req.serviceId, stafferId: req.stafferId, quantity: req.quantity };
  const seriesRow = {
    id: crypto.randomUUID(),
    workspaceId,
    locationId: req.locationId,
    customerId,
    rule: formatRule(rule),
    count: 0,
    version: 0,
    createdAt: now,
    updatedAt: now,
  };
  const retries = new ClaimRetries(inputs.busyOf);
  probe("series.create.read");
  await rendezvous("series.create.read");

  /** The 409 of a series that cannot be booked as asked: every occurrence that does not fit. */
  const refusal = (plan: SeriesPlan) =>
    new ApiError(
      "slot_unavailable",
      plan.planned.length === 0
        ? "No occurrence of the series can be booked."
        : `${plan.unbooked.length} of ${starts.length} occurrences cannot be booked; nothing was booked.`,
      { conflicts: alternativesOfUnbooked(inputs, ctx, service, plan) },
    );
  const planned = () => {
    const plan = planSeriesAround(starts, service, ctx, deps.staff);
    const refused =
      plan.planned.length === 0 || (req.onConflict === "reject" && plan.unbooked.length > 0);
    return { plan, refused };
  };
  const plan = () => {
    const { plan: p, refused } = planned();
    if (refused) throw refusal(p);
    const row = { ...seriesRow, count: p.planned.length };
    // An occurrence is known by its start (with skip, some are left out).
    const paid = credits.paid(p.planned, (b) => starts.indexOf(bookingStart(b)));
    const write = bookingWrite(scope.db, paid.planned, customer, details, deps.render, {
      series: row,
      orders: "each",
    });
    const total = write.orders.reduce((sum, o) => sum + o.total, 0);
    return {
      claims: staffClaims(claimsFor(p.planned), deps.staff),
      build: () => [
        ...write.statements,
        ...credits.statements(scope, paid.credited, ctx.services, now),
        // One confirmation listing every date (its total: the series'), a reminder per occurrence.
        ...creationMessages(
          deps,
          { ...messageContext, total },
          write.records,
          told.stafferNames,
          now,
        ),
      ],
      value: {
        series: row,
        bookings: write.rendered,
        skipped: alternativesOfUnbooked(inputs, ctx, service, p),
      },
    };
  };

  const firstPlan = plan();
  try {
    return await commitPlanned(env, scope.db, workspaceId, firstPlan, deps.defer, {
      plan,
      // Another request won a staffer or unit: note it busy, and plan again (another
      // staffer; with skip, without that occurrence).
      replan: (taken) => retries.learn(taken),
    });
  } catch (error) {
    const explained = await credits.explain(scope, error);
    if (explained !== error) throw explained;
    // A calendar refused and the plan could not go around it: say which occurrences.
    if (error instanceof SlotTakenError) {
      retries.learn(error);
      const again = planned();
      if (again.refused) throw refusal(again.plan);
    }
    throw error;
  }
}
