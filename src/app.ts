import { Scalar } from "@scalar/hono-api-reference";
import { Hono } from "hono";
import { timing } from "hono/timing";
import type { AppEnv } from "./env";
import { onError, onNotFound } from "./lib/error-handler";
import { requestContext } from "./middleware/request-context";
import { adminApi } from "./routes/admin";
import { publicApi } from "./routes/public";

export const PUBLIC_BASE = "/api/public/v2";
export const ADMIN_BASE = "/api/admin/v1";

const info = (title: string, description: string) => ({
  openapi: "3.1.0",
  info: { title, version: "2.0.0", description },
});

export function createApp() {
  const app = new Hono<AppEnv>();
  app.use(timing({ totalDescription: "total" }));
  app.use(requestContext);

  const publicRouter = publicApi();
  const adminRouter = adminApi();

  // The documents are generated from the same zod schemas that validate requests.
  publicRouter.doc31(
    "/openapi.json",
    info(
      "Scheduling and point-of-sale public API",
      "Bookings, services, time slots, staff calendars, customers, goods, POS orders and webhooks. Every call needs `Authorization: Bearer <api key>` and `Workspace: <workspace uuid>`.",
    ),
  );
  adminRouter.doc31(
    "/openapi.json",
    info("Management API", "Provisioning of workspaces. `Authorization: Bearer <ADMIN_TOKEN>`."),
  );

  app.route(PUBLIC_BASE, publicRouter);
  app.route(ADMIN_BASE, adminRouter);
  app.get(
    "/docs",
    Scalar({
      pageTitle: "Scheduling API reference",
      sources: [
        { url: `${PUBLIC_BASE}/openapi.json`, title: "Public API v2" },
        { url: `${ADMIN_BASE}/openapi.json`, title: "Management API v1" },
      ],
    }),
  );
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
