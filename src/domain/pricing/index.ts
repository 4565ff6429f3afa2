export {
  type Invoice,
  type PricingInput,
  type PricingLine,
  priceInvoice,
  promocodeIsUsable,
  type TaxLine,
} from "./invoice";
export { allocate, mulDivHalfUp } from "./round";
