import type { Context } from "hono";
import type { RequestDeps } from "../../http/env";
import { manageUrl } from "../../bookings/manage-link";
import { bookedThroughOffer } from "../../waitlist/queries/waitlist";
import { publicOrigin } from "../../platform/public-origin";
import { limitCustomerChange } from "../../http/rate-limit";
import type { RwgEnv } from "./env";

/**
 * A Google user's request is a customer's: held to the location's policies, its changes of
 * one booking limited as a manage link's are, its bookings messaged with their manage link.
 * Google caps its users itself, so no visitor cap of a publishable key applies (there is no
 * key, and every call comes from Google's own addresses).
 */
export async function rwgDeps(c: Context<RwgEnv>): Promise<RequestDeps> {
  const workspace = c.var.workspace;
  const origin = publicOrigin(c.env);
  return {
    scope: { db: c.var.db, workspaceId: workspace.id },
    env: c.env,
    render: { currency: workspace.currency, locale: workspace.locale, origin },
    defer: (task) => c.var.afterResponse(task),
    staff: false,
    limitCustomerChange: (bookingId) => limitCustomerChange(c.env, bookingId),
    manageUrl: (booking) => manageUrl(c.env, origin, booking) ?? "",
    caller: "customer",
    visitor: undefined,
    messageVisitor: undefined,
    reservationUsed: bookedThroughOffer,
  };
}
