// The hosted payment page (GET/POST /c/pay/:id): the customer types a test card here, so no
// card data ever reaches the Worker.
import type { CheckoutSession } from "./objects";
import type { SessionExtras } from "./state";

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const formatAmount = (amount: number, currency: string) =>
  new Intl.NumberFormat("en", { style: "currency", currency: currency.toUpperCase() }).format(
    amount / 100,
  );

function layout(title: string, body: string) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
label{display:block;margin-top:.8rem;font-weight:600}
input{display:block;width:100%;padding:.5rem;font-size:1rem;box-sizing:border-box}
button{margin-top:1.2rem;padding:.6rem 1.2rem;font-size:1rem}
.error{color:#a00;font-weight:600}
.note{color:#555;font-size:.9rem}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** The page for an open session, with an error line after a refused card. */
export function paymentPage(
  session: CheckoutSession,
  extras: SessionExtras,
  error: string | null,
  typed: { name?: string } = {},
) {
  const setup = session.mode === "setup";
  const amount =
    !setup && session.amount_total !== null && session.currency
      ? formatAmount(session.amount_total, session.currency)
      : "";
  const heading = setup ? "Save your card" : escape(extras.lineItem?.name ?? "Payment");
  const action = setup ? "Save card" : `Pay ${amount}`;
  return layout(
    setup ? "Save your card" : `Pay ${amount}`,
    `<h1>${heading}</h1>
${setup ? `<p>Your card is saved for later charges.</p>` : `<p class="amount">${escape(amount)}</p>`}
${error ? `<p class="error" role="alert">${escape(error)}</p>` : ""}
<form method="post" action="/c/pay/${escape(session.id)}">
<label for="card">Card number</label>
<input id="card" name="card" inputmode="numeric" autocomplete="cc-number" required>
<label for="expiry">Expiry (MM / YY)</label>
<input id="expiry" name="expiry" autocomplete="cc-exp" placeholder="MM / YY" required>
<label for="cvc">CVC</label>
<input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" required>
<label for="name">Name on card</label>
<input id="name" name="name" autocomplete="cc-name" value="${escape(typed.name ?? "")}">
<button type="submit">${escape(action)}</button>
</form>
<p><a href="${escape(session.cancel_url)}">Back</a></p>
<p class="note">Test mode: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined.</p>`,
  );
}

/** The page of a session that can no longer be paid. */
export function closedPage(session: CheckoutSession) {
  const text =
    session.status === "expired"
      ? "This checkout session has expired."
      : "This checkout session is already complete.";
  return layout(
    text,
    `<h1>${escape(text)}</h1>\n<p><a href="${escape(session.cancel_url)}">Back</a></p>`,
  );
}

export const notFoundPage = () =>
  layout("Not found", "<h1>This checkout session does not exist.</h1>");
