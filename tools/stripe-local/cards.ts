/**
 * Stripe's test cards that the fake knows. `fails-later` (4000 0000 0000 0341) attaches and
 * pays on the hosted page, but every later off-session charge to it is declined.
 */
export type CardBehaviour = "succeeds" | "declined" | "fails-later" | "incorrect";

const KNOWN: Record<string, CardBehaviour> = {
  "4242424242424242": "succeeds",
  "4000000000000002": "declined",
  "4000000000000341": "fails-later",
};

/** The digits of a typed card number (spaces and dashes allowed). */
export const cardDigits = (typed: string) => typed.replace(/[\s-]/g, "");

export const cardBehaviour = (typed: string): CardBehaviour =>
  KNOWN[cardDigits(typed)] ?? "incorrect";
