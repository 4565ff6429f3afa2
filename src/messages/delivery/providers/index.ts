import type { DeliveryConfig } from "./config";
import { logProvider } from "./log";
import { resendProvider } from "./resend";
import { twilioProvider } from "./twilio";
import type { Provider } from "./types";

/** The provider of a channel, by configuration: a real one when its secrets are set, else `log`. */
export function providerFor(channel: "email" | "sms", config: DeliveryConfig): Provider {
  if (channel === "email")
    return config.email ? resendProvider(config.email) : logProvider(channel);
  return config.sms ? twilioProvider(config.sms) : logProvider(channel);
}
