import { except } from "hono/combine";
import type { OpenEnv } from "../../http/env";
import { createRouter } from "../../http/openapi";
import { requireApiKey } from "../middleware/auth";
import { idempotency } from "../middleware/idempotency";
import { limitBody, requireJsonBody } from "../middleware/json-body";
import { afterWrite } from "../middleware/after-write";
import { corsPreflight } from "../middleware/cors";
import { declaredOperation, takesNoKeys } from "../middleware/operation";
import { publishableScope } from "../middleware/publishable-scope";
import { requestDeps } from "../middleware/request-deps";
import { publicAddressRateLimit } from "../../http/rate-limit";
import { registerAccounts } from "../../pos/http/accounts";
import { registerBlockedSpots } from "../../calendar/http/blocked-spots";
import { registerBookingForm } from "../../tenancy/http/booking-form";
import { registerWorkspace } from "../../tenancy/http/workspace";
import { registerBookingStatuses } from "../../bookings/http/booking-statuses";
import { registerBookingFeed, registerBookings } from "../../bookings/http/bookings";
import { registerCustomers } from "../../catalogue/http/customers";
import { registerFeeds } from "../../bookings/http/feeds";
import { registerGoods } from "../../pos/http/goods";
import { documentKeyErrors } from "./key-errors";
import { registerLocations } from "../../catalogue/http/locations";
import { registerMessages } from "../../messages/http/messages";
import { registerManage } from "../../bookings/http/manage";
import { registerOrders } from "../../pos/http/orders";
import { registerReservations } from "../../calendar/http/reservations";
import { registerCheckout } from "../../payments/http/checkout";
import { registerBookingPayments } from "../../payments/http/booking-payments";
import { registerResources } from "../../catalogue/http/resources";
import { registerSeries } from "../../bookings/http/series";
import { registerServices } from "../../catalogue/http/services";
import { registerSessions } from "../../calendar/http/sessions";
import { registerStaffers } from "./staffers";
import { registerTimeSlots } from "../../calendar/http/time-slots";
import { registerVouchers } from "../../pos/http/vouchers";
import { registerPackages } from "../../packages/http";
import { registerReports } from "../../reports/http";
import { registerWebhooks } from "../../webhooks/http/webhooks";
import { registerWaitlist } from "../../waitlist/http/waitlist";
import { registerWaitlistOffers } from "../../waitlist/http/waitlist-offers";
import { registerDashboardLink } from "../../reports/dashboard/http";

/**
 * Public API v2. Each route declares the keys it takes (`defineRoute`): every
 * route but its own OpenAPI document, a booking's calendar file, a staffer's
 * calendar feed and a manage link (whose links carry their own tokens) needs an API key, and a publishable key only what a
 * booking widget needs.
 */
export function publicApi() {
  const router = createRouter();
  router.openAPIRegistry.registerComponent("securitySchemes", "ApiKey", {
    type: "http",
    scheme: "bearer",
    description: "Workspace API key",
  });
  router.openAPIRegistry.registerComponent("securitySchemes", "Workspace", {
    type: "apiKey",
    in: "header",
    name: "Workspace",
    description: "UUID of the workspace the call acts on",
  });
  // Browsers' preflights carry no key: answered before anything else.
  router.use("*", corsPreflight);
  router.use("*", declaredOperation(router));
  // Per client address before authentication; the key check then covers the key, a
  // publishable key's origin and the per-key limits; a publishable key's scope after, then
  // the request's deps.
  router.use("*", publicAddressRateLimit);
  router.use("*", except(takesNoKeys, requireApiKey, publishableScope, requestDeps));
  // Idempotency keys belong to an API key: routes without one (a manage link) keep none.
  router.use("*", limitBody, requireJsonBody, afterWrite, except(takesNoKeys, idempotency));
  registerWorkspace(router);
  registerLocations(router);
  registerServices(router);
  registerSessions(router);
  registerResources(router);
  registerGoods(router);
  registerStaffers(router);
  registerTimeSlots(router);
  registerBlockedSpots(router);
  registerBookings(router);
  registerSeries(router);
  registerReservations(router);
  registerCheckout(router);
  registerBookingPayments(router);
  registerCustomers(router);
  registerAccounts(router);
  registerBookingStatuses(router);
  registerBookingForm(router);
  registerOrders(router);
  registerVouchers(router);
  registerPackages(router);
  registerReports(router);
  registerWebhooks(router);
  registerMessages(router);
  registerWaitlist(router);
  registerDashboardLink(router);
  // Routes without an API key are typed without a workspace; their own router keeps that honest.
  const open = createRouter<OpenEnv>();
  registerBookingFeed(open);
  registerFeeds(open);
  registerManage(open);
  registerWaitlistOffers(open);
  router.route("/", open);
  documentKeyErrors(router);
  return router;
}
