import { describe, expect, it } from "vitest";
import { ApiFailure, type Client } from "../../widget/api";
import { freeStarts, refusal } from "../../widget/manage/flow";
import { addPlainDays, dateInZone, zonedDayRange, zonedToUtc } from "../../widget/time";

describe("manage page: the salon's clock", () => {
  it("maps wall-clock times in the location's zone, whatever the machine's zone, across DST", () => {
    // Berlin: UTC+1 in winter, UTC+2 in summer; 2030-03-31 02:00 → 03:00, 2030-10-27 03:00 → 02:00.
    expect(zonedToUtc("2030-01-15", "09:00", "Europe/Berlin")).toBe("2030-01-15T08:00:00Z");
    expect(zonedToUtc("2030-07-01", "09:00", "Europe/Berlin")).toBe("2030-07-01T07:00:00Z");
    expect(zonedToUtc("2030-03-31", "03:00", "Europe/Berlin")).toBe("2030-03-31T01:00:00Z");
    expect(zonedToUtc("2030-03-31", "01:45", "Europe/Berlin")).toBe("2030-03-31T00:45:00Z");
    // Twice on the autumn day: the first one.
    expect(zonedToUtc("2030-10-27", "02:30", "Europe/Berlin")).toBe("2030-10-27T00:30:00Z");
    expect(zonedToUtc("2030-10-27", "03:00", "Europe/Berlin")).toBe("2030-10-27T02:00:00Z");
    expect(zonedToUtc("2030-01-15", "23:45", "Asia/Kolkata")).toBe("2030-01-15T18:15:00Z");
  });

  it("bounds a day of the salon's calendar, 23 and 25 hours long on DST days", () => {
    expect(zonedDayRange("2030-07-01", "Europe/Berlin")).toEqual({
      start: "2030-06-30T22:00:00Z",
      end: "2030-07-01T21:59:59Z",
    });
    expect(zonedDayRange("2030-03-31", "Europe/Berlin")).toEqual({
      start: "2030-03-30T23:00:00Z",
      end: "2030-03-31T21:59:59Z",
    });
    expect(zonedDayRange("2030-10-27", "Europe/Berlin")).toEqual({
      start: "2030-10-26T22:00:00Z",
      end: "2030-10-27T22:59:59Z",
    });
  });

  it("reads an instant's date on the salon's clock and counts calendar days", () => {
    expect(dateInZone("2030-07-01T22:30:00Z", "Europe/Berlin")).toBe("2030-07-02");
    expect(dateInZone("2030-07-01T22:30:00Z", "America/New_York")).toBe("2030-07-01");
    expect(addPlainDays("2030-12-31", 1)).toBe("2031-01-01");
    expect(addPlainDays("2030-03-01", -1)).toBe("2030-02-28");
  });

  it("asks for the salon's day and turns the listed local times into instants", async () => {
    const asked: string[] = [];
    const api: Client = {
      get: <T>(path: string) => {
        asked.push(path);
        return Promise.resolve({
          timezone: "Europe/Berlin",
          dates: [
            { date: "2030-07-01", slots: [{ start: "09:00" }, { start: "09:15" }] },
            { date: "2030-07-02", slots: [{ start: "10:00" }] },
          ],
        } as T);
      },
      post: () => Promise.reject(new Error("not used")),
      del: () => Promise.reject(new Error("not used")),
    };
    expect(await freeStarts(api, "tok/en", "2030-07-01", "Europe/Berlin")).toEqual([
      { start: "2030-07-01T07:00:00Z" },
      { start: "2030-07-01T07:15:00Z" },
    ]);
    expect(asked).toEqual([
      "/manage/tok%2Fen/time-slots?range_start=2030-06-30T22%3A00%3A00Z&range_end=2030-07-01T21%3A59%3A59Z",
    ]);
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
