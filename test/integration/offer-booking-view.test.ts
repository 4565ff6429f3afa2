import { describe, expect, it } from "vitest";
import { manageExpiry } from "../../src/bookings/manage-link";
import { verifyManageToken } from "../../src/bookings/manage-token";
import { renderOfferBooking } from "../../src/waitlist/views/offer-booking";

const SECRET = "unit-test-offer-booking-secret";
const settings = { MANAGE_TOKEN_SECRET: SECRET, CUSTOMER_ID_SECRET: "c".repeat(32) };
const startAt = Date.parse("2030-03-04T10:00:00Z");
const booked = {
  id: "0b6f1c1e-6b1d-4c3a-9a51-2f7c1d9e8a10",
  workspaceId: "7d2c9f4e-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
  customerId: "3c9e2a1f-5b6d-4e7f-8a9b-0c1d2e3f4a5b",
  startAt,
  endAt: startAt + 45 * 60_000,
};

describe("an offer's booking on its page", () => {
  it("names the booking's times and a manage link signed for it and its customer", () => {
    const view = renderOfferBooking(settings, "https://api.salon.example", booked, startAt);
    expect(view).toMatchObject({
      uuid: booked.id,
      start_time: "2030-03-04T10:00:00Z",
      end_time: "2030-03-04T10:45:00Z",
    });
    const url = new URL(view.manage_url ?? "");
    expect(`${url.origin}${url.pathname}`).toBe("https://api.salon.example/widget/manage");
    expect(verifyManageToken(SECRET, url.searchParams.get("token") ?? "")).toMatchObject({
      bookingId: booked.id,
      workspaceId: booked.workspaceId,
    });
  });

  it("gives no link once the link would no longer open (a day after the end), nor without a secret", () => {
    const last = manageExpiry(booked.endAt) - 1;
    expect(
      renderOfferBooking(settings, "https://x.example", booked, last).manage_url,
    ).not.toBeNull();
    expect(
      renderOfferBooking(settings, "https://x.example", booked, last + 1).manage_url,
    ).toBeNull();
    const unsigned = { CUSTOMER_ID_SECRET: "c".repeat(32) };
    expect(
      renderOfferBooking(unsigned, "https://x.example", booked, startAt).manage_url,
    ).toBeNull();
  });
});
