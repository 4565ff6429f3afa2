import { afterEach, describe, expect, it, vi } from "vitest";
import { heldItems } from "../../../src/calendar/held-items";
import { apiKeys, staffers, webhooks } from "../../../src/db/schema";
import {
  IdListSchema,
  parseJsonColumn,
  RefListSchema,
  StoredJsonError,
} from "../../../src/db/json-column";
import { entryPassed, entryServices, entryTimes } from "../../../src/waitlist/stored-entry";

afterEach(() => vi.restoreAllMocks());

const quiet = () => vi.spyOn(console, "error").mockImplementation(() => {});

describe("parseJsonColumn", () => {
  it("answers the parsed value when it is the column's shape", () => {
    expect(parseJsonColumn(IdListSchema, '["a","b"]', { column: "c" })).toEqual(["a", "b"]);
    expect(parseJsonColumn(RefListSchema, '[{"uuid":"u","name":"n"}]', { column: "c" })).toEqual([
      { uuid: "u", name: "n" },
    ]);
  });

  it("throws, and logs the column, the row and the failing fields, for another shape", () => {
    const error = quiet();
    let thrown: unknown;
    try {
      parseJsonColumn(IdListSchema, '["a", 7]', { column: "t.ids", id: "row-1" });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(StoredJsonError);
    expect((thrown as StoredJsonError).message).toMatch(
      /^t\.ids of row-1 is not the stored shape: 1: /,
    );
    expect(error).toHaveBeenCalledTimes(1);
    const line = JSON.parse(String(error.mock.calls[0]?.[0])) as Record<string, unknown>;
    expect(line).toMatchObject({ level: "error", column: "t.ids", id: "row-1" });
    expect(line.problems).toEqual([expect.stringMatching(/^1: /)]);
  });

  it("never logs the stored values themselves (a customer's data)", () => {
    const error = quiet();
    expect(() =>
      parseJsonColumn(RefListSchema, '[{"uuid":"u","name":42}]', { column: "c" }),
    ).toThrow(StoredJsonError);
    expect(String(error.mock.calls[0]?.[0])).not.toContain("42");
    expect(() => parseJsonColumn(IdListSchema, '"jane@example.com"', { column: "c" })).toThrow(
      StoredJsonError,
    );
    expect(String(error.mock.calls[1]?.[0])).not.toContain("jane");
  });

  it("throws for text that is not JSON", () => {
    quiet();
    expect(() => parseJsonColumn(IdListSchema, "[oops", { column: "c" })).toThrow(
      "c is not the stored shape: not JSON",
    );
  });
});

describe("stored JSON columns", () => {
  it("reads a reservation's items as written before sessions and resources (no quantity, no units)", () => {
    const service = {
      service_uuid: "s",
      staffer_uuid: "st",
      starts_at: "2030-01-01T10:00:00Z",
      ends_at: "2030-01-01T11:00:00Z",
      entry_id: "e",
    };
    const items = [{ datetime_start: "2030-01-01T10:00:00Z", services: [service] }];
    expect(heldItems({ id: "r", items: JSON.stringify(items) })).toEqual(items);
  });

  it("refuses a reservation's item without the entry that holds its time", () => {
    quiet();
    const items = [
      {
        datetime_start: "x",
        services: [{ service_uuid: "s", staffer_uuid: "st", starts_at: "a", ends_at: "b" }],
      },
    ];
    expect(() => heldItems({ id: "r", items: JSON.stringify(items) })).toThrow(
      /reservations\.items of r .*0\.services\.0\.entry_id/,
    );
  });

  it("reads a waitlist entry's services (staffer absent or null), times and passed offers", () => {
    const row = {
      id: "w",
      services: '[{"service_uuid":"a"},{"service_uuid":"b","staffer_uuid":null}]',
      times: '[{"start":"09:00","end":"12:00"}]',
      passed: '[{"start":1,"end":2}]',
    };
    expect(entryServices(row)).toEqual([
      { service_uuid: "a" },
      { service_uuid: "b", staffer_uuid: null },
    ]);
    expect(entryTimes(row)).toEqual([{ start: "09:00", end: "12:00" }]);
    expect(entryTimes({ ...row, times: null })).toBeNull();
    expect(entryPassed(row)).toEqual([{ start: 1, end: 2 }]);
  });

  it("refuses passed offers stored as dates rather than instants", () => {
    quiet();
    const row = { id: "w", passed: '[{"start":"2030-01-01","end":"2030-01-02"}]' };
    expect(() => entryPassed(row)).toThrow(/waitlist_entries\.passed of w/);
  });
});

describe("JSON columns drizzle reads (jsonText)", () => {
  it("reads a column's JSON as its schema's type and writes it back as JSON text", () => {
    const headers = [{ name: "x-salon", value: "1" }];
    expect(webhooks.headers.mapFromDriverValue(JSON.stringify(headers))).toEqual(headers);
    expect(webhooks.headers.mapToDriverValue(headers)).toBe(JSON.stringify(headers));
    expect(apiKeys.allowedOrigins.mapFromDriverValue('["https://salon.example"]')).toEqual([
      "https://salon.example",
    ]);
  });

  it("throws, naming the table and column, for a value of another shape", () => {
    quiet();
    expect(() => staffers.permissions.mapFromDriverValue('"admin"')).toThrow(
      /^staffers\.permissions is not the stored shape/,
    );
    expect(() => webhooks.headers.mapFromDriverValue('[{"name":"x"}]')).toThrow(
      /webhooks\.headers .*0\.value/,
    );
  });
});
