import type { OpenEnv } from "../../../http/env";
import type { Router } from "../../../http/openapi";
import { manageRateLimit } from "../../../http/rate-limit";
import * as cancel from "./cancel";
import * as get from "./get";
import * as reschedule from "./reschedule";
import * as timeSlots from "./time-slots";

/**
 * A booking's manage link: no API key and no Workspace header (the signed
 * token names the booking and its workspace), limited per client address
 * before the token is even looked at.
 */
export function registerManage(router: Router<OpenEnv>) {
  router.use("/manage/*", manageRateLimit);
  router.openapi(get.route, get.handler);
  router.openapi(timeSlots.route, timeSlots.handler);
  router.openapi(cancel.route, cancel.handler);
  router.openapi(reschedule.route, reschedule.handler);
}
