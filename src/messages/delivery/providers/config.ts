import { type Config, configOf, type Settings } from "../../../platform/config";

/**
 * Which providers deliver messages: the delivery slice of the Worker's
 * settings (src/platform/config.ts), where a provider is chosen when its
 * secrets are set and the `log` provider otherwise.
 */
export type DeliveryConfig = Config["delivery"];
export type ResendConfig = NonNullable<DeliveryConfig["email"]>;
export type TwilioConfig = NonNullable<DeliveryConfig["sms"]>;

export const deliveryConfigOf = (env: Settings): DeliveryConfig => configOf(env).delivery;
