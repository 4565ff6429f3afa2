import { describe, expect, it } from "vitest";
import {
  availabilityReplace,
  bookingNotification,
  durationText,
  localDays,
  rfc3339,
  type NotifiedBooking,
} from "../../src/reserve-with-google/rules/rtu";

const booking: NotifiedBooking = {
  bookingId: "b-1",
  merchantId: "loc-1",
  serviceId: "svc-1",
  startMs: Date.parse("2030-03-04T08:00:00Z"),
  endMs: Date.parse("2030-03-04T08:45:00Z"),
  isCanceled: false,
  cancelReason: null,
  cancelChargesFee: false,
};

describe("real-time update requests", () => {
  it("writes timestamps as RFC 3339 UTC in whole seconds and durations as seconds with s", () => {
    expect(rfc3339(Date.parse("2030-03-04T08:00:00.789Z"))).toBe("2030-03-04T08:00:00Z");
    expect(durationText(2700)).toBe("2700s");
  });

  it("tells a cancel, a no-show (penalized when the fee was charged) and an open booking as the booking server does", () => {
    const status = (b: Partial<NotifiedBooking>) =>
      bookingNotification("20001", { ...booking, ...b }, "status").body.status;
    expect(status({})).toBe("CONFIRMED");
    expect(status({ isCanceled: true, cancelReason: "customer" })).toBe("CANCELED");
    expect(status({ isCanceled: true, cancelReason: "customer", cancelChargesFee: true })).toBe(
      "CANCELED",
    );
    expect(status({ isCanceled: true })).toBe("CANCELED");
    expect(status({ isCanceled: true, cancelReason: "didnt_come" })).toBe("NO_SHOW");
    expect(status({ isCanceled: true, cancelReason: "didnt_come", cancelChargesFee: true })).toBe(
      "NO_SHOW_PENALIZED",
    );
  });

  it("patches a cancelled booking with updateMask=status and the resource name of its path", () => {
    const req = bookingNotification("20001", { ...booking, isCanceled: true }, "status");
    expect(req).toEqual({
      method: "PATCH",
      path: "/v1alpha/notification/partners/20001/bookings/b-1?updateMask=status",
      body: {
        name: "partners/20001/bookings/b-1",
        merchantId: "loc-1",
        serviceId: "svc-1",
        startTime: "2030-03-04T08:00:00Z",
        duration: "2700s",
        status: "CANCELED",
      },
    });
  });

  it("patches a move with both changed fields in the mask, comma-separated and encoded", () => {
    const req = bookingNotification("20001", booking, "startTime,duration");
    expect(req.path).toBe(
      "/v1alpha/notification/partners/20001/bookings/b-1?updateMask=startTime%2Cduration",
    );
    expect(new URL(`https://x${req.path}`).searchParams.get("updateMask")).toBe(
      "startTime,duration",
    );
    expect(req.body.status).toBe("CONFIRMED");
  });

  it("replaces every listed service's slots in the window, an empty list for one with none open", () => {
    const from = Date.parse("2030-03-03T23:00:00Z");
    const to = Date.parse("2030-03-04T23:00:00Z");
    const req = availabilityReplace(
      "20001",
      { merchantId: "loc-1", fromMs: from, toMs: to },
      ["svc-1", "svc-2"],
      [
        {
          serviceId: "svc-1",
          startSec: Date.parse("2030-03-04T08:00:00Z") / 1000,
          durationSec: 2700,
          spotsTotal: 3,
          spotsOpen: 2,
        },
      ],
    );
    expect(req.method).toBe("POST");
    expect(req.path).toBe("/v1alpha/inventory/partners/20001/availability:replace");
    expect(req.body).toEqual({
      extendedServiceAvailability: [
        {
          merchantId: "loc-1",
          serviceId: "svc-1",
          startTimeRestrict: "2030-03-03T23:00:00Z",
          endTimeRestrict: "2030-03-04T23:00:00Z",
          availability: [
            {
              startTime: "2030-03-04T08:00:00Z",
              duration: "2700s",
              spotsTotal: "3",
              spotsOpen: "2",
            },
          ],
        },
        {
          merchantId: "loc-1",
          serviceId: "svc-2",
          startTimeRestrict: "2030-03-03T23:00:00Z",
          endTimeRestrict: "2030-03-04T23:00:00Z",
          availability: [],
        },
      ],
    });
  });

  it("covers the local days of the instants, adjacent days as one window, across a DST change", () => {
    // Berlin: 4 March is UTC+1; the night of 30/31 March 2030 moves to UTC+2.
    expect(localDays([Date.parse("2030-03-04T08:00:00Z")], "Europe/Berlin")).toEqual([
      { fromMs: Date.parse("2030-03-03T23:00:00Z"), toMs: Date.parse("2030-03-04T23:00:00Z") },
    ]);
    expect(
      localDays(
        [Date.parse("2030-03-30T10:00:00Z"), Date.parse("2030-03-31T10:00:00Z")],
        "Europe/Berlin",
      ),
    ).toEqual([
      { fromMs: Date.parse("2030-03-29T23:00:00Z"), toMs: Date.parse("2030-03-31T22:00:00Z") },
    ]);
    expect(
      localDays(
        [Date.parse("2030-03-06T10:00:00Z"), Date.parse("2030-03-04T10:00:00Z")],
        "Europe/Berlin",
      ),
    ).toHaveLength(2);
  });
});
