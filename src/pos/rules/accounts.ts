/** Payment account kinds of a branch. */
export const ACCOUNT_TYPES = ["cash", "card", "qr", "online"] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/**
 * QR and online payments are settled outside the till (the customer scans or
 * pays by link), so the POS cannot mark an order paid on such an account by itself.
 */
export const requiresAction = (type: AccountType): boolean => type === "qr" || type === "online";

/** The order's payment_method when it is paid on an account of this type (e.g. `cash_account`). */
export const paymentMethodFor = (type: AccountType): `${AccountType}_account` => `${type}_account`;
