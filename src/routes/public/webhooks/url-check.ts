import { webhookUrlProblem } from "../../../domain/webhooks/url";
import type { Env } from "../../../env";
import { fieldError } from "../../../lib/errors";

/** DESIGN §7: private targets only where the deployment allows them (local dev, tests). */
export function assertWebhookUrl(env: Env, url: string) {
  const problem = webhookUrlProblem(url, env.ALLOW_PRIVATE_WEBHOOKS === "true");
  if (problem) throw fieldError("url", problem);
}
