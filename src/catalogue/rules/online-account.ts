/**
 * The name of the account every location has for money paid online (through
 * the payment provider): made with the location, or on the first payment of a
 * location that has none.
 */
export const ONLINE_ACCOUNT_NAME = "Online";
