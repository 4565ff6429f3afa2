import { createMiddleware } from "hono/factory";
import type { PublicEnv } from "../env";
import { ApiError } from "../lib/errors";
import { answeringRoute, type RouteSpec } from "./exact-routes";

/**
 * What a publishable key may do: what a booking widget needs and nothing
 * else. Reading the catalogue and free time, holding a slot, booking, and
 * looking after one booking whose uuid the customer holds (the uuid is their
 * capability; cancel and reschedule are bound by the location's policy).
 * Everything else (customers, orders, lists of bookings, webhooks, writes to
 * the catalogue, other lifecycle changes) is refused: the key is public.
 * Paths are OpenAPI paths relative to the public API; parameter names do not matter.
 */
const PUBLISHABLE_OPERATIONS: readonly RouteSpec[] = [
  { method: "get", path: "/locations" },
  { method: "get", path: "/services" },
  { method: "get", path: "/services/{service_uuid}" },
  { method: "get", path: "/staffers" },
  { method: "get", path: "/resources" },
  { method: "get", path: "/booking-form" },
  { method: "get", path: "/locations/{location_uuid}/time-slots" },
  { method: "post", path: "/locations/{location_uuid}/time-slots/cart" },
  { method: "post", path: "/locations/{location_uuid}/time-slots/cart/next" },
  { method: "post", path: "/reservations" },
  { method: "get", path: "/reservations/{reservation_uuid}" },
  { method: "delete", path: "/reservations/{reservation_uuid}" },
  { method: "post", path: "/bookings" },
  { method: "post", path: "/bookings/cart" },
  { method: "get", path: "/bookings/{booking_uuid}" },
  { method: "put", path: "/bookings/{booking_uuid}/status/cancel" },
  { method: "put", path: "/bookings/{booking_uuid}/reschedule" },
];

/** `{name}` (OpenAPI) or `:name` (Hono) → `:`, so two spellings of one path compare equal. */
const shape = (path: string) => path.replace(/\{[^}]+\}|:[^/]+/g, ":");

const key = (method: string, path: string) => `${method.toUpperCase()} ${shape(path)}`;

const ALLOWED = new Set(PUBLISHABLE_OPERATIONS.map((r) => key(r.method, r.path)));

/** Whether a publishable key may call this operation (method and OpenAPI path). */
export const isPublishableOperation = (method: string, path: string) =>
  ALLOWED.has(key(method, path));

/** After `requireApiKey`: a publishable key outside its scope is 403 `forbidden`. */
export const publishableScope = createMiddleware<PublicEnv>(async (c, next) => {
  if (c.var.apiKey.kind === "publishable") {
    const route = answeringRoute(c);
    // No route at all: let the router answer 404/405 as for any key.
    if (route && !isPublishableOperation(route.method, route.path)) {
      throw new ApiError(
        "forbidden",
        "A publishable key cannot call this operation; use a secret key from a server.",
      );
    }
  }
  await next();
});
