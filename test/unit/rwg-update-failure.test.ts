import { describe, expect, it } from "vitest";
import { updateFailure } from "../../src/reserve-with-google/rules/update-failure";

const coded = (code: string) => Object.assign(new Error(code), { code });
const open = { isCanceled: false };
const canceled = { isCanceled: true };

describe("UpdateBooking's failures from the public API's refusals", () => {
  it("names a closed booking by what closed it, for a cancel and a move", () => {
    for (const kind of ["cancel", "move"] as const) {
      expect(updateFailure(coded("booking_closed"), kind, canceled)?.cause).toBe(
        "BOOKING_ALREADY_CANCELLED",
      );
      expect(updateFailure(coded("booking_closed"), kind, open)?.cause).toBe(
        "BOOKING_NOT_CANCELLABLE",
      );
      expect(updateFailure(coded("policy_window_passed"), kind, open)?.cause).toBe(
        "OUTSIDE_CANCELLATION_WINDOW",
      );
    }
  });

  it("answers a refused new time SLOT_UNAVAILABLE", () => {
    for (const code of [
      "slot_unavailable",
      "session_full",
      "package_unavailable",
      "validation_failed",
    ]) {
      expect(updateFailure(coded(code), "move", open)?.cause).toBe("SLOT_UNAVAILABLE");
    }
  });

  it("leaves limits, lost races, moves between shards and the unknown as HTTP errors", () => {
    for (const code of ["rate_limited", "booking_changed", "workspace_moving", "not_found"]) {
      expect(updateFailure(coded(code), "cancel", open)).toBeUndefined();
      expect(updateFailure(coded(code), "move", open)).toBeUndefined();
    }
    expect(updateFailure(coded("validation_failed"), "cancel", open)).toBeUndefined();
    expect(updateFailure(new Error("boom"), "move", open)).toBeUndefined();
    expect(updateFailure("not an error", "move", open)).toBeUndefined();
  });
});
