export {
  type Invoice,
  type PricingInput,
  type PricingLine,
  priceInvoice,
  promocodeIsUsable,
  type TaxLine,
} from "./invoice";
export { allocate, mulDivHalfUp } from "./round";
export {
  baseAmount,
  NOTHING_PAID,
  type OrderLine,
  type OrderTerms,
  orderInvoice,
  orderTerms,
  type PromocodeRule,
  termsErrors,
} from "./order";
export {
  type BookedServiceLine,
  bookingOrderInvoice,
  invoiceOf,
  type PaidSoFar,
  type StoredOrder,
} from "./stored";
