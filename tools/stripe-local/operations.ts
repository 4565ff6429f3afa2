/** The Stripe operations the Worker uses, as the OpenAPI description names their paths. */
export const OPERATIONS = [
  { method: "post", path: "/v1/customers" },
  { method: "post", path: "/v1/checkout/sessions" },
  { method: "get", path: "/v1/checkout/sessions/{session}" },
  { method: "post", path: "/v1/checkout/sessions/{session}/expire" },
  { method: "post", path: "/v1/payment_intents" },
  { method: "get", path: "/v1/payment_intents/{intent}" },
  { method: "get", path: "/v1/setup_intents/{intent}" },
  { method: "post", path: "/v1/refunds" },
  { method: "get", path: "/v1/refunds/{refund}" },
] as const;

export type Operation = (typeof OPERATIONS)[number];

/** Objects the fake renders beyond the operations' answers: events and what they carry. */
export const RESPONSE_ROOTS = ["event", "charge", "payment_method"] as const;
