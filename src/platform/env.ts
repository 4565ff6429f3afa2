/**
 * Worker bindings come from `wrangler types` (worker-configuration.d.ts, generated
 * from wrangler.toml); secrets are not in wrangler.toml, so they are added here.
 */
export type Env = Cloudflare.Env & {
  /** Secret in production; `dev-admin-token` locally unless the environment overrides it. */
  ADMIN_TOKEN?: string;
  /** Resend API key: e-mails go through Resend when it is set (docs/messages-delivery.md). */
  RESEND_API_KEY?: string;
  /** Twilio account and its auth token: SMS go through Twilio when both are set. */
  TWILIO_ACCOUNT_SID?: string;
  TWILIO_AUTH_TOKEN?: string;
  /** Signs manage links. Secret in production; `npm start` and the tests set a development one. */
  MANAGE_TOKEN_SECRET?: string;
  /** Keys customer ids. Secret in production; `npm start` and the tests set a development one. */
  CUSTOMER_ID_SECRET?: string;
  /** Stripe: the secret key, the webhook endpoint's signing secret, the API base (docs/payments.md). */
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_BASE?: string;
  /** Reserve with Google: the service account's JSON key the real-time updates sign in with. */
  RWG_SERVICE_ACCOUNT_JSON?: string;
  /**
   * Set on a request's copy of the env (never a binding): the fetch the
   * payment provider's client goes through, counting its calls for Server-Timing.
   */
  PROVIDER_FETCH?: typeof fetch;
};
