import { describe, expect, it } from "vitest";
import { calendarDate, dateOrInstant, instant, instantMs } from "../../src/platform/instant";

const ok = (value: string) => instant.safeParse(value);

describe("the instant rule", () => {
  it.each([
    ["2030-05-04T10:00:00Z", "2030-05-04T10:00:00Z"],
    ["2030-05-04T12:00:00+02:00", "2030-05-04T10:00:00Z"],
    ["2030-05-04T00:30:00-01:00", "2030-05-04T01:30:00Z"],
    ["2030-05-04T10:00:00.000Z", "2030-05-04T10:00:00Z"],
    ["2030-05-04T10:00:00.0+00:00", "2030-05-04T10:00:00Z"],
    ["2030-05-04T10:00:00.000000000Z", "2030-05-04T10:00:00Z"],
    ["2028-02-29T10:00:00Z", "2028-02-29T10:00:00Z"],
    ["1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"],
    ["1970-01-01T01:00:00+01:00", "1970-01-01T00:00:00Z"],
    ["2100-12-31T23:59:59Z", "2100-12-31T23:59:59Z"],
    ["2101-01-01T00:30:00+01:00", "2100-12-31T23:30:00Z"],
  ])("takes %s as %s", (value, normalised) => {
    expect(ok(value)).toMatchObject({ success: true, data: normalised });
  });

  it.each([
    ["2030-05-04T10:00:00.5Z", /whole seconds/],
    ["2030-05-04T10:00:00.000001Z", /whole seconds/],
    ["2030-05-04T10:00:00.0000000000Z", /instant/],
    ["2101-01-01T00:00:00Z", /2100/],
    ["2100-12-31T23:30:00-01:00", /2100/],
    ["1969-12-31T23:59:59Z", /1970/],
    ["1970-01-01T00:30:00+01:00", /1970/],
    ["9999-12-31T23:59:59Z", /2100/],
    ["2100-02-29T10:00:00Z", /instant/],
    ["2030-05-04T24:00:00Z", /instant/],
    ["2030-05-04T10:00:60Z", /instant/],
    ["2030-05-04t10:00:00z", /instant/],
    ["2030-05-04T10:00:00", /instant/],
    ["+002030-05-04T10:00:00Z", /instant/],
  ])("refuses %s", (value, message) => {
    const result = ok(value);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(message);
  });

  it("as epoch milliseconds for filters", () => {
    expect(instantMs.parse("2030-05-04T12:00:00+02:00")).toBe(Date.UTC(2030, 4, 4, 10));
    expect(instantMs.safeParse("2030-05-04T12:00:00.1Z").success).toBe(false);
  });

  it("dates follow the same years; a range bound takes either", () => {
    expect(calendarDate.safeParse("2100-12-31").success).toBe(true);
    expect(calendarDate.safeParse("2101-01-01").success).toBe(false);
    expect(calendarDate.safeParse("1969-12-31").success).toBe(false);
    expect(calendarDate.safeParse("2030-02-30").success).toBe(false);
    expect(dateOrInstant.parse("2030-03-04")).toBe("2030-03-04");
    expect(dateOrInstant.parse("2030-03-04T01:00:00+01:00")).toBe("2030-03-04T00:00:00Z");
    expect(dateOrInstant.safeParse("2030-3-4").error?.issues[0]?.message).toMatch(/date .* or/);
  });
});
