import { describe, expect, it } from "vitest";
import { ApiFailure } from "../../widget/api";
import { coveredServices, creditsLeft, packageRefusal, unusable } from "../../widget/package/flow";
import type { PublicPackage } from "../../widget/package/types";
import type { Service } from "../../widget/types";

const NOW = Date.parse("2030-07-01T10:00:00Z");
const LATER = "2030-09-01T00:00:00Z";
const EARLIER = "2030-06-01T00:00:00Z";

const service = (uuid: string) => ({ uuid, name: uuid }) as Service;
const pkg = (credits: PublicPackage["credits"], status: PublicPackage["status"] = "active") => ({
  uuid: "p",
  name: "10 massages",
  status,
  expires_at: LATER,
  credits,
});
const failure = (status: number, code: string, fields: Record<string, string[]> = {}) =>
  new ApiFailure(status, code, "", fields, null);

describe("widget: booking with a package", () => {
  it("offers the services its live credits name, in the catalogue's order", () => {
    const p = pkg([
      { service_uuids: ["b", "a"], remaining: 2, expires_at: LATER },
      { service_uuids: ["c"], remaining: 0, expires_at: LATER },
      { service_uuids: ["d"], remaining: 3, expires_at: EARLIER },
    ]);
    const catalogue = ["a", "b", "c", "d", "e"].map(service);
    expect(coveredServices(p, catalogue, NOW).map((s) => s.uuid)).toEqual(["a", "b"]);
    expect(creditsLeft(p, NOW)).toBe(2);
  });

  it("says why a package cannot pay: nothing left, not active, or nothing bookable here", () => {
    const credit = { service_uuids: ["a"], remaining: 1, expires_at: LATER };
    const live = [credit];
    expect(unusable(pkg(live), [service("a")])).toBeNull();
    expect(unusable(pkg(live, "past_due"), [service("a")])).toBe("package.inactive");
    expect(unusable(pkg([{ ...credit, remaining: 0 }]), [])).toBe("package.inactive");
    expect(unusable(pkg(live), [])).toBe("package.no_services");
  });

  it("reads the API's refusals of a package: 409 package_unavailable, 422 on its field (cart paths too)", () => {
    expect(packageRefusal(failure(409, "package_unavailable"))).toBe("package.unavailable");
    expect(
      packageRefusal(failure(422, "validation_failed", { customer_package_uuid: ["Not theirs."] })),
    ).toBe("package.refused");
    expect(
      packageRefusal(
        failure(422, "validation_failed", {
          "items.0.services.1.customer_package_uuid": ["No credit names it."],
        }),
      ),
    ).toBe("package.refused");
    expect(packageRefusal(failure(422, "validation_failed", { customer_phone: ["Bad."] }))).toBe(
      null,
    );
    expect(packageRefusal(failure(409, "slot_unavailable"))).toBeNull();
    expect(packageRefusal(new Error("x"))).toBeNull();
  });
});
