import { describe, expect, it } from "vitest";
import { ApiFailure, type Client } from "../../widget/api";
import { freeStarts, refusal, salonZone } from "../../widget/manage/flow";
import { addDays, dateInZone, formatFullDateTime } from "../../widget/time";

describe("manage page: the salon's clock", () => {
  it("reads an instant's date on the salon's clock and counts calendar days", () => {
    expect(dateInZone("2030-07-01T22:30:00Z", "Europe/Berlin")).toBe("2030-07-02");
    expect(dateInZone("2030-07-01T22:30:00Z", "America/New_York")).toBe("2030-07-01");
    expect(addDays("2030-12-31", 1)).toBe("2031-01-01");
    expect(addDays("2030-03-01", -1)).toBe("2030-02-28");
  });

  it("asks for the salon's day by date and lists the instants the API gives", async () => {
    const asked: string[] = [];
    const slot = (start: string, reserved_on: string) => ({
      start,
      start_formatted: 0,
      end: "",
      end_formatted: 0,
      reserved_on,
    });
    const api: Client = {
      get: <T>(path: string) => {
        asked.push(path);
        return Promise.resolve({
          timezone: "Europe/Berlin",
          dates: [
            {
              date: "2030-07-01",
              slots: [slot("09:00", "2030-07-01T07:00:00Z"), slot("09:15", "2030-07-01T07:15:00Z")],
            },
            { date: "2030-07-02", slots: [slot("10:00", "2030-07-02T08:00:00Z")] },
          ],
        } as T);
      },
      post: () => Promise.reject(new Error("not used")),
      del: () => Promise.reject(new Error("not used")),
    };
    expect(await freeStarts(api, "tok/en", "2030-07-01")).toEqual([
      { start: "2030-07-01T07:00:00Z" },
      { start: "2030-07-01T07:15:00Z" },
    ]);
    expect(asked).toEqual([
      "/manage/tok%2Fen/time-slots?range_start=2030-07-01&range_end=2030-07-01",
    ]);
  });
});

describe("manage page: the salon's zone, not the zone the booking was made from", () => {
  // A widget booking's own `timezone` is the customer's browser's; the view names the salon's.
  const view = (salon: string, client: string) => ({
    timezone: salon,
    booking: { timezone: client },
  });

  it("names the salon's zone: a Berlin salon's booking made from Paris is Europe/Berlin", () => {
    expect(salonZone(view("Europe/Berlin", "Europe/Paris"))).toBe("Europe/Berlin");
  });

  it("reads a New York booking at the time its e-mail gives, wherever the browser is", () => {
    // 14:00 in New York on 1 July 2030 (EDT, UTC-4), booked from a browser in Berlin.
    const start = "2030-07-01T18:00:00Z";
    const shown = formatFullDateTime(
      start,
      "en-US",
      salonZone(view("America/New_York", "Europe/Berlin")),
    );
    expect(shown).toContain("02:00 PM");
    expect(shown).toContain("July 1");
    // Read in the booking's own zone, it would say 20:00: what the page showed before.
    expect(formatFullDateTime(start, "en-US", "Europe/Berlin")).toContain("08:00 PM");
  });
});

describe("manage page: the API's refusals", () => {
  const failure = (status: number, code: string, alternatives: { start: string }[] | null = null) =>
    new ApiFailure(status, code, "English words", {}, alternatives);

  it("names each refusal of the manage API", () => {
    expect(refusal(failure(401, "invalid_token"))).toBe("manage.invalid_token");
    expect(refusal(failure(401, "unauthorized"))).toBe("manage.invalid_token");
    expect(refusal(failure(409, "policy_window_passed"))).toBe("manage.policy_window_passed");
    expect(refusal(failure(409, "booking_closed"))).toBe("manage.booking_closed");
    expect(refusal(failure(409, "slot_unavailable", [{ start: "2030-07-01T07:00:00Z" }]))).toBe(
      "slot.taken_alternatives",
    );
    expect(refusal(failure(409, "slot_unavailable", []))).toBe("slot.taken");
  });

  it("leaves the rest to the widget's failure notice", () => {
    expect(refusal(failure(429, "rate_limited"))).toBeNull();
    expect(refusal(failure(500, "internal"))).toBeNull();
    expect(refusal(new Error("offline"))).toBeNull();
  });
});
