import { configOf } from "../../../platform/config";
import { deliveryUrl, MAX_DELIVERY_URL, type NameValue } from "../../rules/request";
import { webhookUrlProblem } from "../../../platform/rules/url";
import type { Env } from "../../../platform/env";
import { fieldError } from "../../../platform/errors";

/** Private targets (docs/decisions.md, "Webhooks") only where the deployment allows them (local dev, tests). */
export function assertWebhookUrl(env: Env, url: string) {
  const problem = webhookUrlProblem(url, configOf(env).allowPrivateWebhooks);
  if (problem) throw fieldError("url", problem);
}

/** The URL a delivery requests, parameters included, must stay within MAX_DELIVERY_URL. */
export function assertDeliveryUrlLength(url: string, parameters: readonly NameValue[]) {
  const length = deliveryUrl(url, parameters).href.length;
  if (length > MAX_DELIVERY_URL)
    throw fieldError(
      "parameters",
      `With these parameters the delivery URL is ${length} characters long; at most ${MAX_DELIVERY_URL}.`,
    );
}
