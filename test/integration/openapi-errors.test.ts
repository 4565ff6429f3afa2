import { describe, expect, it } from "vitest";
import { ErrorCodeSchema } from "../../src/platform/errors";
import { ADMIN, PUBLIC, send } from "../helpers/http";

interface Doc {
  paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
  components: { schemas: Record<string, { enum?: string[]; properties?: object }> };
}

const lifecycle: [string, string, string[]][] = [
  [
    "put",
    "/bookings/{booking_uuid}/status/complete",
    [
      "booking_closed",
      "booking_changed",
      "voucher_unavailable",
      "voucher_balance_changed",
      "conflict",
    ],
  ],
  [
    "put",
    "/bookings/{booking_uuid}/status/cancel",
    ["booking_closed", "booking_changed", "policy_window_passed", "conflict"],
  ],
  ["put", "/bookings/{booking_uuid}/status", ["booking_changed", "conflict"]],
  [
    "put",
    "/bookings/{booking_uuid}/reschedule",
    [
      "booking_closed",
      "slot_unavailable",
      "session_full",
      "booking_changed",
      "policy_window_passed",
      "package_unavailable",
      "conflict",
    ],
  ],
  [
    "put",
    "/bookings/{booking_uuid}/staffer",
    ["booking_closed", "slot_unavailable", "session_full", "booking_changed", "conflict"],
  ],
  [
    "put",
    "/bookings/{booking_uuid}/services",
    ["booking_not_replaceable", "slot_unavailable", "session_full", "booking_changed", "conflict"],
  ],
  ["post", "/bookings/{booking_uuid}/public_notes", ["booking_changed", "conflict"]],
];

describe("error codes in the OpenAPI documents", () => {
  it.each([
    ["public", PUBLIC],
    ["management", ADMIN],
  ])("the %s document's error body lists every error code", async (_, prefix) => {
    const doc = (await send<Doc>(`${prefix}/openapi.json`)).body;
    expect(doc.components.schemas.ErrorCode?.enum).toEqual(ErrorCodeSchema.options);
    expect(doc.components.schemas.Error?.properties).toMatchObject({
      code: { $ref: "#/components/schemas/ErrorCode" },
    });
  });

  it.each(lifecycle)("%s %s documents its own 404, 409 and 422", async (method, path, codes) => {
    const doc = (await send<Doc>(`${PUBLIC}/openapi.json`)).body;
    const op = doc.paths[path]?.[method];
    expect(op?.responses["404"]?.description).toBe("No such booking in this workspace");
    expect(op?.responses["409"]?.description).toContain(
      `Codes: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
    );
    expect(op?.responses["422"]?.description).toContain("`validation_failed`");
  });
});
