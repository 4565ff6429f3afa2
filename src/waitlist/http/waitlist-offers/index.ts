import type { OpenEnv } from "../../../http/env";
import type { Router } from "../../../http/openapi";
import { manageRateLimit } from "../../../http/rate-limit";
import * as book from "./book";
import * as get from "./get";

/**
 * A waitlist offer's link: no API key and no Workspace header (the token
 * names the offer), limited per client address as manage links are, then
 * per token and per workspace (`openLimitedOffer`).
 */
export function registerWaitlistOffers(router: Router<OpenEnv>) {
  router.use("/waitlist-offers/*", manageRateLimit);
  router.openapi(get.route, get.handler);
  router.openapi(book.route, book.handler);
}
