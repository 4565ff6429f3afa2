import type { Scope } from "../../db/scope";
import type { Config } from "../../platform/config";
import { openSlots } from "../feeds/open-slots";
import { servicesAtLocation } from "../queries/location-services";
import { bookableThroughGoogle } from "../rules/bookable";
import { availabilityReplace } from "../rules/rtu";
import { callGoogle, type CallOutcome } from "./call";

type Notify = NonNullable<Config["rwgNotify"]>;

/**
 * The services Google may book at the location: every one gets an entry, so one whose last
 * spot in the window just went is cleared at Google rather than left as it was.
 */
async function googleServiceIds(scope: Scope, locationId: string): Promise<string[]> {
  const rows = await servicesAtLocation(scope, locationId);
  return rows.filter(bookableThroughGoogle).map((s) => s.id);
}

/**
 * Replaces Google's availability of a location's services over a window (the local days a
 * booking change touched) with the open starts as the feed computes them.
 */
export async function replaceAvailability(
  notify: Notify,
  scope: Scope,
  m: { partnerId: string; locationId: string; fromMs: number; toMs: number },
): Promise<CallOutcome | "nothing"> {
  const [serviceIds, slots] = await Promise.all([
    googleServiceIds(scope, m.locationId),
    openSlots(scope, { locationId: m.locationId, fromMs: m.fromMs, toMs: m.toMs }),
  ]);
  // A location gone, or with nothing Google may book: nothing Google could show.
  if (!slots || serviceIds.length === 0) return "nothing";
  return callGoogle(
    notify,
    availabilityReplace(
      m.partnerId,
      { merchantId: m.locationId, fromMs: m.fromMs, toMs: m.toMs },
      serviceIds,
      slots,
    ),
  );
}
