import { Hono } from "hono";
import { timing } from "hono/timing";
import type { OpenEnv } from "../http/env";
import { onError, onNotFound } from "./error-handler";
import { requestContext } from "./middleware/request-context";
import { serveDocument } from "../http/openapi";
import { adminApi } from "./admin";
import { publicApi } from "./public";
import { afterWrite } from "./middleware/after-write";
import { STRIPE_WEBHOOK_PATH, stripeWebhook } from "../payments/http/stripe-webhooks/post";
import { docsPage } from "./docs";
import { dashboardPage } from "../reports/dashboard/http/page";
import { manageRateLimit, rwgAddressRateLimit } from "../http/rate-limit";
import { sellPackagesWith } from "../pos/package-lines";
import { posPackageLines } from "../packages/pos-lines";
import { refundOnlineWith } from "../pos/online-refunds";
import { orderOnlineRefunds } from "../payments/order-checkout/refund";

import { ADMIN_BASE, PUBLIC_BASE } from "../http/api-paths";
import { RWG_BASE, rwgServer } from "../reserve-with-google/http";
import { limitBody } from "./middleware/json-body";
import { listenToEventsWith } from "../webhooks/event-listener";
import { queueGoogleUpdates } from "../reserve-with-google/notify/listener";

export { ADMIN_BASE, PUBLIC_BASE };

// POS orders sell package lines, but pos may not import src/packages (above it): installed here,
// on import, so every entry (requests, queues, cron) renders and pays orders alike.
sellPackagesWith(posPackageLines);
// Likewise a POS order paid online is refunded at the provider by src/payments (above pos).
refundOnlineWith(orderOnlineRefunds);
// Bookings changed here are told to Google (src/reserve-with-google, above webhooks) as their
// outbox events are fanned out.
listenToEventsWith(queueGoogleUpdates);

export function createApp() {
  const app = new Hono<OpenEnv>();
  // A refused key's answer carries no timings: they would describe work done for a workspace.
  app.use(timing({ totalDescription: "total", enabled: (c) => !c.get("refused") }));
  app.use(requestContext);

  const publicRouter = publicApi();
  const adminRouter = adminApi();

  // The documents are generated from the same zod schemas that validate requests.
  serveDocument(publicRouter, {
    title: "Scheduling and point-of-sale public API",
    version: "2.0.0",
    description:
      "Bookings, services, time slots, staff calendars, customers, goods, POS orders and webhooks. Every call needs `Authorization: Bearer <api key>` and `Workspace: <workspace uuid>`.",
    server: PUBLIC_BASE,
    security: { ApiKey: [], Workspace: [] },
    // Every operation but the document works on one workspace (the key's, or a link's) on its shard.
    headers: {
      idempotency: true,
      cors: true,
      routed: (_method, path) => path !== "/openapi.json",
    },
  });
  serveDocument(adminRouter, {
    title: "Management API",
    version: "2.0.0",
    description: "Provisioning of workspaces. `Authorization: Bearer <ADMIN_TOKEN>`.",
    server: ADMIN_BASE,
    security: { AdminToken: [] },
    // A workspace's own data, on its shard: not its directory row, keys or move.
    headers: {
      idempotency: false,
      cors: false,
      routed: (method, path) =>
        (path.startsWith("/workspaces/{ws}/") &&
          !path.endsWith("/move") &&
          !path.startsWith("/workspaces/{ws}/api-keys")) ||
        (path === "/workspaces/{ws}" && method === "patch"),
    },
  });

  app.route(PUBLIC_BASE, publicRouter);
  app.route(ADMIN_BASE, adminRouter);
  // The payment provider's events: signed by the provider, no API key.
  app.post(STRIPE_WEBHOOK_PATH, afterWrite, stripeWebhook);
  // Google's booking server calls (Reserve with Google): per client address before the
  // Basic auth, their writes' effects dispatched as the public API's are.
  app.use(`${RWG_BASE}/*`, rwgAddressRateLimit, limitBody, afterWrite);
  app.route(RWG_BASE, rwgServer());
  app.get("/docs", docsPage);
  // A reports dashboard link (no key: its token is the credential), counted per client address.
  app.get("/dashboard", manageRateLimit, dashboardPage);
  app.get("/", (c) =>
    c.json({
      name: "Scheduling and point-of-sale API",
      docs: "/docs",
      openapi: [`${PUBLIC_BASE}/openapi.json`, `${ADMIN_BASE}/openapi.json`],
    }),
  );

  app.onError(onError);
  app.notFound(onNotFound);
  return app;
}
