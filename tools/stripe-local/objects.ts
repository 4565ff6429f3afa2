// The Stripe objects the fake holds, in Stripe's wire shape (a subset of each object's fields:
// every field the trimmed OpenAPI description requires, and those the Worker reads).
export type Metadata = Record<string, string>;

export interface Customer {
  id: string;
  object: "customer";
  created: number;
  email: string | null;
  name: string | null;
  phone: string | null;
  description: string | null;
  livemode: false;
  metadata: Metadata;
  invoice_settings: {
    custom_fields: null;
    default_payment_method: string | null;
    footer: null;
  };
}

export interface PaymentMethod {
  id: string;
  object: "payment_method";
  billing_details: {
    address: null;
    email: null;
    name: string | null;
    phone: null;
  };
  card: {
    brand: "visa";
    exp_month: number;
    exp_year: number;
    funding: "credit";
    last4: string;
    country: "US";
  };
  created: number;
  customer: string | null;
  livemode: false;
  metadata: Metadata;
  type: "card";
}

export interface LastPaymentError {
  type: "card_error";
  code: "card_declined";
  decline_code: "generic_decline";
  message: string;
  payment_method: PaymentMethod | null;
}

export interface PaymentIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_capturable: number;
  amount_received: number;
  capture_method: "automatic";
  client_secret: string;
  confirmation_method: "automatic";
  created: number;
  currency: string;
  customer: string | null;
  description: string | null;
  last_payment_error: LastPaymentError | null;
  latest_charge: string | null;
  livemode: false;
  metadata: Metadata;
  payment_method: string | null;
  payment_method_types: string[];
  setup_future_usage: "off_session" | "on_session" | null;
  status: "requires_payment_method" | "requires_confirmation" | "succeeded";
}

export interface SetupIntent {
  id: string;
  object: "setup_intent";
  client_secret: string;
  created: number;
  customer: string | null;
  last_setup_error: null;
  livemode: false;
  metadata: Metadata;
  payment_method: string | null;
  payment_method_types: string[];
  status: "requires_payment_method" | "succeeded";
  usage: "off_session";
}

export interface Refund {
  id: string;
  object: "refund";
  amount: number;
  balance_transaction: null;
  charge: string;
  created: number;
  currency: string;
  metadata: Metadata;
  payment_intent: string;
  reason: "duplicate" | "fraudulent" | "requested_by_customer" | null;
  status: "succeeded";
}

export interface Charge {
  id: string;
  object: "charge";
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  billing_details: PaymentMethod["billing_details"];
  captured: boolean;
  created: number;
  currency: string;
  customer: string | null;
  description: string | null;
  disputed: false;
  failure_code: string | null;
  failure_message: string | null;
  livemode: false;
  metadata: Metadata;
  outcome: {
    type: "authorized" | "issuer_declined";
    network_status: string;
    seller_message: string;
  };
  paid: boolean;
  payment_intent: string;
  payment_method: string | null;
  refunded: boolean;
  refunds: { object: "list"; data: Refund[]; has_more: false; total_count: number; url: string };
  status: "succeeded" | "failed";
}

export interface CheckoutSession {
  id: string;
  object: "checkout.session";
  amount_subtotal: number | null;
  amount_total: number | null;
  automatic_tax: { enabled: false; status: null };
  cancel_url: string;
  client_reference_id: string | null;
  created: number;
  currency: string | null;
  customer: string | null;
  expires_at: number;
  livemode: false;
  metadata: Metadata;
  mode: "payment" | "setup";
  payment_intent: string | null;
  payment_method_types: string[];
  payment_status: "paid" | "unpaid" | "no_payment_required";
  setup_intent: string | null;
  shipping_options: [];
  status: "open" | "complete" | "expired";
  success_url: string;
  url: string | null;
}

export interface StripeEvent {
  id: string;
  object: "event";
  api_version: string;
  created: number;
  data: { object: unknown };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
}

/** Whatever the fake can hand out by id (GET, expand[]). */
export type StripeObject =
  Customer | PaymentMethod | PaymentIntent | SetupIntent | Refund | Charge | CheckoutSession;
