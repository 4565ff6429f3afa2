import { except } from "hono/combine";
import { createRouter } from "../../lib/openapi";
import { requireApiKey } from "../../middleware/auth";
import { idempotency } from "../../middleware/idempotency";
import { limitBody, requireJsonBody } from "../../middleware/json-body";
import { outboxDispatch } from "../../middleware/outbox-dispatch";
import { publicRateLimit } from "../../middleware/rate-limit";
import { registerAccounts } from "./accounts";
import { registerBlockedSpots } from "./blocked-spots";
import { registerBookingStatuses } from "./booking-statuses";
import { registerBookings } from "./bookings";
import { ICAL_PATH } from "./bookings/ical";
import { registerCustomers } from "./customers";
import { registerGoods } from "./goods";
import { registerLocations } from "./locations";
import { registerOrders } from "./orders";
import { registerServices } from "./services";
import { registerStaffers } from "./staffers";
import { registerTimeSlots } from "./time-slots";
import { registerWebhooks } from "./webhooks";

/** Public API v2: every route but its own OpenAPI document needs an API key. */
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
  router.use("*", publicRateLimit);
  // The OpenAPI document and a booking's calendar file (token in the link) need no API key.
  router.use(
    "*",
    except(
      (c) => c.req.path.endsWith("/openapi.json") || ICAL_PATH.test(c.req.path),
      requireApiKey,
    ),
  );
  router.use("*", limitBody, requireJsonBody, outboxDispatch, idempotency);
  registerLocations(router);
  registerServices(router);
  registerGoods(router);
  registerStaffers(router);
  registerTimeSlots(router);
  registerBlockedSpots(router);
  registerBookings(router);
  registerCustomers(router);
  registerAccounts(router);
  registerBookingStatuses(router);
  registerOrders(router);
  registerWebhooks(router);
  return router;
}
