import type { BookingDeps } from "../bookings/deps";
import { createBookings } from "../bookings/create";
import type { BookingRecord } from "../bookings/views/booking";
import { run } from "../db/reads";
import { normalisePhone } from "../platform/rules/phone";
import { ApiError } from "../platform/errors";
import { rendezvous } from "../platform/failpoints";
import { invalidArgument, missing } from "./wire/invalid";
import { googleBookingInsert } from "./queries/google-bookings";
import { bookingAskRead } from "./queries/booking-ask";
import { tokenClaimDone, tokenClaimRelease } from "./queries/token-claims";
import { failure, refused } from "./create-refusal";
import { bookableThroughGoogle } from "./rules/bookable";
import { beyondHorizon } from "./rules/failures";
import { createdAnswer, googleBookingOut } from "./views/booking";
import { slotOut } from "./views/slot";
import { userInformationOut } from "./views/user";
import type { CreateBookingRequest } from "./wire/requests";

/** The fields CreateBooking cannot do without (a 400 names the first one missing). */
function required(req: CreateBookingRequest) {
  const { slot, user_information: user } = req;
  if (!slot) throw missing("slot");
  if (!slot.merchant_id) throw missing("slot.merchant_id");
  if (!slot.service_id) throw missing("slot.service_id");
  if (!slot.start_sec) throw missing("slot.start_sec");
  if (!slot.duration_sec) throw missing("slot.duration_sec");
  if (!user) throw missing("user_information");
  if (!user.user_id) throw missing("user_information.user_id");
  if (!user.telephone) throw missing("user_information.telephone");
  if (!user.given_name) throw missing("user_information.given_name");
  if (!req.idempotency_token) throw missing("idempotency_token");
  if (req.lease_ref) throw invalidArgument("lease_ref", "Leases are not offered.");
  return { slot, user, token: req.idempotency_token };
}

/**
 * CreateBooking: a customer's booking of one slot, idempotent by Google's token. A token
 * already answered gets that answer again, byte for byte, whatever the body says now (the
 * token names the request). A new one is claimed in the first read, before any calendar
 * time: while another request with the token holds the claim, this one is answered 409
 * (Google retries, and the retry finds the answer), so one token never answers both a
 * booking and a failure. The claimant books as the public API books a customer's visit; the
 * answer is written, and the claim deleted, in the booking's own batch. A refusal is
 * Google's `booking_failure`, is not remembered, and gives the claim up.
 *
 * Answers the response's JSON text, as stored.
 */
export async function createBooking(
  deps: BookingDeps,
  workspace: { country: string },
  req: CreateBookingRequest,
): Promise<string> {
  const { slot, user, token } = required(req);
  const phone = normalisePhone(user.telephone, workspace.country);
  if (!phone) {
    throw invalidArgument("user_information.telephone", "Must be a valid phone number.");
  }
  const start = slot.start_sec * 1000;
  // Lets a race test send requests with one token into their first read together (inert otherwise).
  await rendezvous("rwg.create.ask");
  const now = Date.now();
  const known = await run(
    deps.scope.db,
    bookingAskRead(deps.scope, {
      token,
      locationId: slot.merchant_id,
      serviceId: slot.service_id,
      start,
      userId: user.user_id,
      phone,
      now,
    }),
  );
  if (known.answered) return known.answered.response;
  const until = known.claimedUntil;
  if (until === undefined) {
    throw new ApiError("conflict", "The same request is being processed; retry.");
  }
  const outcome = { booked: false };
  try {
    return await claimed(deps, workspace, req, known, outcome);
  } finally {
    // Best effort: a claim left behind lapses by itself (`CLAIM_MS`).
    if (!outcome.booked) await release(deps, token, until);
  }
}

const release = (deps: BookingDeps, token: string, until: number) =>
  tokenClaimRelease(deps.scope, token, until).then(
    () => undefined,
    () => undefined,
  );

type Known = ReturnType<ReturnType<typeof bookingAskRead>["parse"]>;

/** CreateBooking once its token is ours: the checks of the slot, then the booking. */
async function claimed(
  deps: BookingDeps,
  workspace: { country: string },
  req: CreateBookingRequest,
  known: Known,
  outcome: { booked: boolean },
): Promise<string> {
  const { slot, user, token } = required(req);
  const start = slot.start_sec * 1000;
  if (!known.locationKnown) throw invalidArgument("slot.merchant_id", "Unknown merchant.");
  const service = known.service;
  // A service the widget does not show is no more Google's than one that never existed.
  if (!service || !service.live || !service.liveInWidget) {
    throw invalidArgument("slot.service_id", "Unknown service.");
  }
  // Known, but it takes money online: Google has no checkout of ours to send its user to.
  if (!bookableThroughGoogle(service)) {
    return failure("PAYMENT_ERROR", "The service is paid online when booked.");
  }
  if (req.offer_id || req.deal_id) {
    return failure("OFFER_UNAVAILABLE", "The merchant has no offers or deals.");
  }
  if (slot.duration_sec !== service.duration * 60) {
    return failure("SLOT_UNAVAILABLE", "The duration is not the service's.");
  }
  if (beyondHorizon(slot.start_sec, Date.now())) {
    return failure("SLOT_UNAVAILABLE", "The start is too far ahead.");
  }
  if (known.overlapping?.byUser) {
    return failure("SLOT_ALREADY_BOOKED_BY_USER", "The user already booked this slot.");
  }
  if (known.overlapping) {
    return failure(
      "OVERLAPPING_RESERVATION",
      "The phone already holds a booking of this service at this time.",
    );
  }

  let answer = "";
  const stafferId = slot.resources?.staff_id || undefined;
  const asked = JSON.stringify({
    booking: { slot: slotOut(slot), user_information: userInformationOut(user) },
  });
  const alongside = (records: readonly BookingRecord[]) =>
    records.flatMap((record) => {
      const { booking, services } = record;
      answer = JSON.stringify(
        createdAnswer(
          googleBookingOut({
            bookingId: booking.id,
            response: asked,
            locationId: booking.locationId,
            serviceId: services[0]?.serviceId ?? slot.service_id,
            stafferId: services[0]?.stafferId ?? "",
            startAt: booking.startAt,
            endAt: booking.endAt,
            isCanceled: false,
            cancelReason: null,
            cancelChargesFee: false,
          }),
        ),
      );
      return [
        googleBookingInsert(deps.scope, {
          bookingId: booking.id,
          idempotencyToken: token,
          userId: user.user_id,
          response: answer,
          googleVersion: booking.version,
          now: Date.now(),
        }),
        tokenClaimDone(deps.scope, token),
      ];
    });
  try {
    await createBookings(deps, {
      country: workspace.country,
      locationId: slot.merchant_id,
      items: [{ start, services: [{ serviceId: slot.service_id, stafferId }] }],
      customer: {
        phone: user.telephone,
        firstName: user.given_name,
        lastName: user.family_name || undefined,
        email: user.email || undefined,
      },
      publicNotes: req.additional_request || undefined,
      source: "reserve_with_google",
      caller: "customer",
      customerAnswer: false,
      alongside,
    });
    outcome.booked = true;
    return answer;
  } catch (error) {
    return await refused(deps, token, error);
  }
}
