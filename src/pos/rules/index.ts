export {
  discountedLineAmounts,
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
  termsRefusals,
  type TermsSubject,
  voucherValues,
} from "./order";
export { discountedLines, unitShares } from "./shares";
export {
  type BookedServiceLine,
  bookingOrderInvoice,
  bookingOrderPricing,
  invoiceOf,
  lineNetsOf,
  type PaidSoFar,
  type StoredOrder,
  voucherValuesOf,
} from "./stored";
export {
  MAX_PAYMENT_VOUCHERS,
  MAX_VOUCHERS_PER_ORDER,
  type PaymentSplit,
  splitPayment,
  type VoucherTender,
} from "./payment";
export { CODE_ALPHABET, CODE_SYMBOLS, codeFromBytes, normaliseCode } from "./voucher-code";
export {
  bookingSaleLines,
  posSaleLines,
  type SoldBookedService,
  type SoldOrderLine,
} from "./sale-lines";
