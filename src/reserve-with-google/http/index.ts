import { Hono } from "hono";
import { rwgBasicAuth } from "./auth";
import type { RwgEnv } from "./env";
import { healthCheck } from "./health-check";
import { limitPartner } from "./partner-limit";
import { METHODS } from "./methods";

/** Where the booking server answers: Google is given `<origin>/rwg` and adds `/v3/<Method>`. */
export const RWG_BASE = "/rwg/v3";

/**
 * The booking server (Maps Booking API v3, REST with JSON). Every method behind the
 * workspace's Basic auth. Google writes paths with or without a trailing slash: both answer.
 * Lease, order and marketing methods are not offered (404, as an unknown method is).
 */
export function rwgServer() {
  const router = new Hono<RwgEnv>();
  router.use("*", rwgBasicAuth, limitPartner);
  router.get("/HealthCheck", healthCheck);
  router.get("/HealthCheck/", healthCheck);
  for (const [name, handler] of Object.entries(METHODS)) {
    router.post(`/${name}`, handler);
    router.post(`/${name}/`, handler);
  }
  return router;
}
