import type { BookingDeps } from "../bookings/deps";
import { createBookings } from "../bookings/create";
import type { BookingRecord } from "../bookings/views/booking";
import { run } from "../db/reads";
import { isUniqueViolation } from "../db/constraints";
import { ApiError, InvalidError } from "../platform/errors";
import { normalisePhone } from "../platform/rules/phone";
import { probe } from "../platform/failpoints";
import { missing } from "./http/body";
import { answerOfToken, googleBookingInsert } from "./queries/google-bookings";
import { bookingAskRead } from "./queries/booking-ask";
import { failureOf } from "./rules/failures";
import { bookableThroughGoogle } from "./rules/bookable";
import { createdAnswer, googleBookingOut } from "./views/booking";
import { slotOut } from "./views/slot";
import { userInformationOut } from "./views/user";
import type { CreateBookingRequest } from "./wire/requests";
import type { FailureCause } from "./wire/enums";
import type { CreateBookingResponse } from "./wire/responses";

const invalidArgument = (field: string, message: string) =>
  new ApiError("invalid_argument", message, { errors: { [field]: [message] } });

/** A business failure: HTTP 200, nothing stored (a retry with the same token is tried again). */
const failure = (cause: FailureCause, description: string) =>
  JSON.stringify({ booking_failure: { cause, description } } satisfies CreateBookingResponse);

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
 * token names the request). A new one is booked as the public API books a customer's
 * visit; the answer is written in the booking's own batch, beside a unique index on the
 * token, so two requests with one token never make two bookings: the loser's batch fails as
 * a whole (its calendar holds released) and it answers the winner's booking. A refusal is
 * Google's `booking_failure` and is not remembered.
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
  const known = await run(
    deps.scope.db,
    bookingAskRead(deps.scope, {
      token,
      locationId: slot.merchant_id,
      serviceId: slot.service_id,
      start,
      userId: user.user_id,
      phone,
    }),
  );
  if (known.answered) return known.answered.response;
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
  if (known.overlapping) {
    return failure(
      "OVERLAPPING_RESERVATION",
      "The user already holds a booking of this service at this time.",
    );
  }

  let answer = "";
  const stafferId = slot.resources?.staff_id || undefined;
  const asked = JSON.stringify({
    booking: { slot: slotOut(slot), user_information: userInformationOut(user) },
  });
  const alongside = (records: readonly BookingRecord[]) =>
    records.map((record) => {
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
      return googleBookingInsert(deps.scope, {
        bookingId: booking.id,
        idempotencyToken: token,
        userId: user.user_id,
        response: answer,
        googleVersion: booking.version,
        now: Date.now(),
      });
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
    return answer;
  } catch (error) {
    return await refused(deps, token, error);
  }
}

/**
 * A booking that did not commit. Another request with the same token may have won (its
 * batch took the token first, or its hold the time): that answer is this one's too.
 */
async function refused(deps: BookingDeps, token: string, error: unknown): Promise<string> {
  const raced = isUniqueViolation(error, "rwg_bookings", "idempotency_token");
  // Lets a race test prove which path a loser took (inert otherwise).
  if (raced) probe("rwg.create.token_raced");
  const verdict = raced
    ? null
    : error instanceof InvalidError
      ? failureOf({ code: error.code, subjects: error.problems.map((p) => p.about.is) })
      : error instanceof ApiError
        ? failureOf({ code: error.code, subjects: [] })
        : { kind: "http" as const };
  if (verdict?.kind === "http") throw error;
  const description = describe(error);
  if (verdict?.kind === "invalid_argument") {
    throw new ApiError("invalid_argument", description, {
      errors: { user_information: [description] },
    });
  }
  const won = await winnerOf(deps, token, timeTaken(error));
  if (won) return won;
  if (!verdict) throw error;
  return failure(verdict.cause, description);
}

/** How long a loser waits for a winner's batch that held the time when the loser claimed it. */
const WINNER_GRACE_MS = 150;

/**
 * The answer a concurrent request with the same token got. When the time itself was taken,
 * the taker may be that request, its hold granted and its batch still on its way: it is
 * looked for again a moment later, so one token never answers both a booking and a failure.
 */
async function winnerOf(deps: BookingDeps, token: string, taken: boolean) {
  const now = await answerOfToken(deps.scope, token);
  if (now || !taken) return now?.response;
  probe("rwg.create.winner_awaited");
  await new Promise((resolve) => setTimeout(resolve, WINNER_GRACE_MS));
  return (await answerOfToken(deps.scope, token))?.response;
}

const timeTaken = (error: unknown) =>
  error instanceof ApiError && (error.code === "slot_unavailable" || error.code === "session_full");

const describe = (error: unknown) =>
  error instanceof InvalidError
    ? error.problems.flatMap((p) => p.messages).join(" ")
    : error instanceof Error
      ? error.message
      : "The booking could not be made.";
