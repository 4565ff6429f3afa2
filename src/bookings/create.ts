import { withAlternatives } from "../calendar/availability/alternatives";
import { commitPlanned, staffClaims } from "../calendar/client";
import { engineInputs } from "../calendar/availability/engine-input";
import { availabilityRead } from "../calendar/queries/availability";
import { creationMessagesRead } from "../messages/queries/messages";
import { readTogether } from "../db/reads";
import { guard } from "../db/guards";
import type { FormField } from "../tenancy/rules/booking-form";
import type { Caller } from "../platform/caller";
import { configOf } from "../platform/config";
import { customerIdFor } from "../platform/rules/customer-id";
import {
  visitDurationProblems,
  visitSeatProblems,
  visitShapeProblems,
} from "../platform/rules/public-visit";
import { normalisePhone } from "../platform/rules/phone";
import type { Problem } from "../platform/rules/problems";
import { ApiError, InvalidError, invalid } from "../platform/errors";
import { probe, rendezvous } from "../platform/failpoints";
import { ClaimRetries } from "../calendar/planning/claim-retries";
import { creationMessages } from "./messages";
import type { BookingDeps } from "./deps";
import { claimsFor } from "../calendar/planning/calendar-entries";
import { type PlanContext, type PlanItem, planItems } from "../calendar/planning/planner";
import { stableIds } from "../calendar/planning/plan-ids";
import { itemProblems, planningQuery } from "../calendar/planning/prepare";
import { type RedeemSubject, reservationUse } from "./reservation-use";
import { redeemingClaims, type ReservationUse } from "./redemption";
import { BOOKING_VISIT, bookingQuota } from "./visitor-cap";
import { VisitorQuota } from "../calendar/planning/visitor-quota";
import { bookingWrite } from "./write";
import type { BookingRecord } from "./views/booking";
import type { Statement } from "../db/statement";
import { creationContext } from "./create-context";
import { refuseUnpaid } from "./payment-gate";
import { customerAnswer } from "./customer-answer";
import { bookingCredits, type CreditSubject } from "../packages/booking-credits";
import { creditAsks, namedPackagesRead } from "../packages/credit-asks";

/** An item to book: each service may name the customer package whose credit pays for it. */
export interface BookingItem extends PlanItem {
  services: (PlanItem["services"][number] & { packageId?: string | undefined })[];
}

export interface CreateRequest {
  /** The workspace's country, for phone numbers written without a country code. */
  country: string;
  locationId: string;
  items: BookingItem[];
  customer: {
    phone: string;
    firstName: string;
    lastName?: string | undefined;
    middleName?: string | undefined;
    email?: string | undefined;
  };
  timezone?: string | undefined;
  publicNotes?: string | undefined;
  source?: string | undefined;
  customerBrowserTz?: string | undefined;
  customerBrowserLanguage?: string | undefined;
  bookingCallback?: boolean | undefined;
  googleMeetGuestEmails?: string | undefined;
  /** A reservation the booking uses up: its held time becomes the booking's atomically. */
  reservationId?: string | undefined;
  /** A customer's booking (publishable key) never changes an existing customer's names or e-mail. */
  caller: Caller;
  /**
   * Made with a publishable key: the visitor (key and client address, hashed, as a
   * reservation's holder). Its bookings are capped; without a reservation each request
   * is bounded as a hold is (a reservation was bounded when it was made).
   */
  visitor?: string | undefined;
  /**
   * The booking is made from a checkout whose payment the provider confirmed:
   * a customer's booking of services that take money online is refused (402
   * `payment_required`) unless it is.
   */
  paymentSettled?: boolean | undefined;
  /**
   * The answer goes to the customer who books (a publishable key, an offer
   * link): each booking carries its manage link and whom its confirmation
   * went to (`customerAnswer`).
   */
  customerAnswer?: boolean | undefined;
  /**
   * Rows another capability keeps about the new bookings (Reserve with Google's token and
   * answer), written in the bookings' own batch: they commit with the bookings or not at all.
   */
  alongside?: ((bookings: readonly BookingRecord[]) => Statement[]) | undefined;
}

/**
 * What a booking request can be wrong about (422, `InvalidError`): its items
 * and the reservation they use, the customer's phone, and the fields the
 * workspace's booking form requires (named as the form names them).
 */
export type BookingSubject = RedeemSubject | { is: "phone" } | { is: "form"; field: FormField };

/** What a booking body that can name customer packages can be wrong about. */
export type CreditBookingSubject = BookingSubject | CreditSubject;

/**
 * Creates one order with one booking per item: 3 D1 round trips (auth, one
 * read batch, one write batch) plus one claim per affected calendar (staffer or resource unit).
 */
export async function createBookings(deps: BookingDeps, req: CreateRequest) {
  try {
    return await book(deps, req);
  } catch (error) {
    // A taken time answers 409 with nearby starts where the items fit.
    throw await withAlternatives(deps.scope, error, {
      locationId: req.locationId,
      items: req.items,
    });
  }
}

async function book(deps: BookingDeps, req: CreateRequest) {
  const { scope, env } = deps;
  const reservation: ReservationUse | undefined = req.reservationId
    ? reservationUse(
        scope,
        {
          reservationId: req.reservationId,
          locationId: req.locationId,
          items: req.items,
        },
        deps.reservationUsed,
      )
    : undefined;
  const workspaceId = scope.workspaceId;
  const phone = normalisePhone(req.customer.phone, req.country);
  if (!phone) throw invalid({ is: "phone" }, "Must be a valid phone number.");
  // A new customer's id; one found by phone keeps the id it has.
  const newCustomerId = await customerIdFor(workspaceId, phone, configOf(env).customerIdSecret);
  const bounded = Boolean(req.visitor && !reservation);
  if (bounded) {
    const shape: Problem<BookingSubject>[] = [
      ...visitShapeProblems(req.items, BOOKING_VISIT),
      ...visitSeatProblems(req.items, BOOKING_VISIT),
    ];
    if (shape.length > 0) throw new InvalidError(shape);
  }

  // The visitor's count is read beside the planning read: no round trip of its own.
  // What the customer's messages need (settings, staff names) is in the planning batch,
  // and so are the packages the body names.
  const asks = creditAsks(req.items);
  const [{ loaded, told, packages }, cap] = await Promise.all([
    readTogether(scope.db, {
      loaded: availabilityRead(scope, {
        ...planningQuery({ ...req, widgetOnly: req.caller === "customer" }),
        customerPhone: phone,
        ...(req.reservationId ? { reservationId: req.reservationId } : {}),
      }),
      told: creationMessagesRead(scope, req.locationId),
      packages: namedPackagesRead(
        scope,
        asks.map((a) => a.packageId),
      ),
    }),
    VisitorQuota.read(scope, bookingQuota(scope, req.visitor)),
  ]);
  // Read in the same batch; the body must ask for exactly what it holds (422), while it lives (409).
  const redeemed = reservation?.redeem(loaded.reservation);
  const redeem = redeemed?.redemption;
  // A reservation's time is the booking's to take: not in its way, its units tried first.
  const inputs = engineInputs(
    loaded,
    redeem
      ? { ignoreEntries: redeem.entryIds, preferUnits: new Set(redeem.entriesByCalendar.keys()) }
      : {},
  );
  if (!inputs) throw invalid({ is: "location" }, "Unknown location.");
  const customerId = loaded.customer?.id ?? newCustomerId;
  const { formProblems, details, customer, messageContext } = creationContext(deps, req, {
    loaded,
    told,
    inputs,
    customerId,
    phone,
  });
  const services = new Map(loaded.services.map((s) => [s.id, s]));
  // A package is its owner's: the customer found by phone (a new one owns none).
  const credits = bookingCredits(asks, {
    packages,
    customerId: loaded.customer?.id ?? null,
    now: Date.now(),
  });
  const problems: Problem<CreditBookingSubject>[] = [
    ...formProblems,
    ...itemProblems(req.items, loaded, inputs),
    ...(bounded ? visitDurationProblems(durationsOf(req.items, services), BOOKING_VISIT) : []),
    ...credits.problems,
  ];
  if (problems.length > 0) throw new InvalidError(problems);
  if (credits.refusal) throw credits.refusal;
  // Read in the same batch (the services, the reservation): refused before anything is claimed.
  // A credit is the service's fee: what credits pay for asks no money online, even when a
  // reservation priced it (a visit paid by credits alone asks nothing).
  const unpaid = req.items.map((item, k) => ({
    ...item,
    services: item.services.filter((_, p) => !credits.covers(k, p)),
  }));
  const allCredited = asks.length > 0 && unpaid.every((item) => item.services.length === 0);
  refuseUnpaid(
    {
      items: unpaid,
      services,
      reservation: redeem && !allCredited ? (loaded.reservation ?? undefined) : undefined,
      currency: deps.render.currency,
    },
    { customer: req.caller === "customer", settled: req.paymentSettled === true },
  );
  cap?.check(req.items.length);

  const now = Date.now();
  const retries = new ClaimRetries(inputs.busyOf);
  const ids = stableIds();
  // Lets a race test hold a booking between its read and its claims (inert otherwise).
  const read = redeem ? "booking.create.reservation_read" : "booking.create.read";
  probe(read);
  await rendezvous(read);

  const plan = () => {
    const around = planAround(redeemed?.items ?? req.items, deps.staff, {
      rules: inputs.rules,
      services,
      performersOf: inputs.performersOf,
      resources: inputs.resources,
      resourcesOf: inputs.resourcesOf,
      now,
      ids,
    });
    // One booking per item, in the items' order.
    const { planned, credited } = credits.paid(around, (_, k) => k);
    const { statements, rendered, records } = bookingWrite(
      scope.db,
      planned,
      customer,
      details,
      deps.render,
    );
    const answered = req.customerAnswer ? customerAnswer(deps, records, rendered) : null;
    return {
      claims: staffClaims(
        redeem ? redeemingClaims(claimsFor(planned), redeem) : claimsFor(planned),
        deps.staff,
      ),
      build: () => [
        ...(cap ? [cap.guard(planned.length)] : []),
        ...(redeem ? [guard(scope, redeem.live())] : []),
        ...statements,
        ...(redeem?.statements(planned) ?? []),
        ...credits.statements(scope, credited, services, now),
        ...creationMessages(
          deps,
          { ...messageContext, total: records[0]?.order.total ?? 0 },
          records,
          told.stafferNames,
          now,
        ),
        ...(answered?.statements ?? []),
        ...(req.alongside?.(records) ?? []),
      ],
      value: rendered,
      ...(answered ? { answer: answered.answer } : {}),
    };
  };
  const first = plan();
  try {
    return await commitPlanned(env, scope.db, workspaceId, first, deps.defer, {
      plan,
      // Another request won this staffer or unit: note it busy and let allocation pick another.
      // Staffers are the reservation's: no one else to try, only the reason to find.
      replan: (refusal) => !redeem && retries.learn(refusal),
    });
  } catch (error) {
    await cap?.explain(error, (redeemed?.items ?? req.items).length);
    // Before the reservation's: a credit's guard failing is no expired reservation.
    const explained = await credits.explain(scope, error);
    if (explained !== error) throw explained;
    throw redeem ? await redeem.explain(error) : error;
  }
}

/**
 * Staff take the time of a publishable key's hold only when they must: the
 * plan first keeps clear of such holds (an "anyone" booking goes to a free
 * staffer), and only when nothing fits does it plan over them.
 */
function planAround(items: PlanItem[], staff: boolean, ctx: PlanContext) {
  try {
    return planItems(items, ctx);
  } catch (error) {
    if (!staff || !(error instanceof ApiError) || error.code !== "slot_unavailable") throw error;
    return planItems(items, { ...ctx, overHolds: true });
  }
}

/** The items' services with their catalogue durations (0 for unknown ones, reported elsewhere). */
const durationsOf = (items: PlanItem[], services: Map<string, { duration: number }>) =>
  items.map((item) => ({
    services: item.services.map((s) => ({ durationMin: services.get(s.serviceId)?.duration ?? 0 })),
  }));
