import { createMiddleware } from "hono/factory";
import type { PublicEnv, RequestDeps } from "../../http/env";
import { sha256Hex } from "../../tenancy/api-keys";
import { manageUrl } from "../../bookings/manage-link";
import { messageVisitor } from "../../messages/message-visitor";
import { bookedThroughOffer } from "../../waitlist/queries/waitlist";
import { publicOrigin } from "../../platform/public-origin";
import { clientAddress, limitCustomerChange } from "../../http/rate-limit";

/**
 * After `requireApiKey`: builds once what the request's use-cases need
 * (`c.var.deps`): the workspace's D1 scope, the bindings, the render context,
 * work deferred past the answer, and who is calling. Handlers pass it (or the
 * part a use-case takes) instead of assembling their own.
 */
export const requestDeps = createMiddleware<PublicEnv>(async (c, next) => {
  const { workspace, apiKey } = c.var;
  const staff = apiKey.kind === "secret";
  const origin = publicOrigin(c.env);
  const deps: RequestDeps = {
    scope: { db: c.var.db, workspaceId: workspace.id },
    env: c.env,
    render: {
      currency: workspace.currency,
      locale: workspace.locale,
      origin,
    },
    // Started by `requestContext` once the answer is ready.
    defer: (task) => c.var.afterResponse(task),
    staff,
    limitCustomerChange: (bookingId) => limitCustomerChange(c.env, bookingId),
    // The link every message of a booking carries (empty without a signing secret).
    manageUrl: (booking) => manageUrl(c.env, origin, booking) ?? "",
    caller: staff ? "staff" : "customer",
    visitor: staff ? undefined : await sha256Hex(`${apiKey.id}\n${clientAddress(c)}`),
    messageVisitor: staff ? undefined : await messageVisitor(clientAddress(c)),
    // A booking that uses a waitlist offer's reservation books the entry, in its own batch.
    reservationUsed: bookedThroughOffer,
  };
  c.set("deps", deps);
  await next();
});
