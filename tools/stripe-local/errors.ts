/** Stripe's error body: `{ error: { type, code?, decline_code?, message, param?, … } }`. */
export interface StripeErrorBody {
  type: "invalid_request_error" | "card_error" | "api_error" | "idempotency_error";
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  payment_intent?: unknown;
  doc_url?: string;
}

/** Thrown by an operation; the server renders it as Stripe would, with its status. */
export class StripeError extends Error {
  constructor(
    readonly status: number,
    readonly error: StripeErrorBody,
  ) {
    super(error.message);
  }

  get body() {
    return { error: this.error };
  }
}

export const invalidRequest = (message: string, param?: string, code?: string) =>
  new StripeError(400, { type: "invalid_request_error", message, param, code });

export const resourceMissing = (kind: string, id: string, param = "id") =>
  new StripeError(404, {
    type: "invalid_request_error",
    code: "resource_missing",
    message: `No such ${kind}: '${id}'`,
    param,
  });

export const apiError = () =>
  new StripeError(500, {
    type: "api_error",
    message: "An unknown error occurred while processing your request (stripe-local fault).",
  });
