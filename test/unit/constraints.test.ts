import { describe, expect, it } from "vitest";
import { isUniqueViolation } from "../../src/db/constraints";

const d1 = new Error(
  "D1_ERROR: UNIQUE constraint failed: customers.workspace_id, customers.phone: SQLITE_CONSTRAINT",
);

describe("isUniqueViolation", () => {
  it("recognises D1's message for the named column", () => {
    expect(isUniqueViolation(d1, "customers", "phone")).toBe(true);
  });

  it("looks through wrapping errors", () => {
    const wrapped = new Error("Failed query: insert into customers …", { cause: d1 });
    expect(isUniqueViolation(new Error("outer", { cause: wrapped }), "customers", "phone")).toBe(
      true,
    );
  });

  it("ignores other columns, other constraints and non-errors", () => {
    expect(isUniqueViolation(d1, "promocodes", "code")).toBe(false);
    expect(
      isUniqueViolation(new Error("FOREIGN KEY constraint failed"), "customers", "phone"),
    ).toBe(false);
    expect(
      isUniqueViolation("UNIQUE constraint failed: customers.phone", "customers", "phone"),
    ).toBe(false);
    expect(isUniqueViolation(undefined, "customers", "phone")).toBe(false);
  });
});
