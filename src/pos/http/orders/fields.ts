import type { OrderLine } from "../../rules";
import type { FieldNames } from "../../../http/request-fields";
import type { CalculateSubject } from "../../orders/calculate";
import type { CreateOrderSubject } from "../../orders/create";
import type { PaySubject } from "../../orders/pay";
import type { RefundSubject } from "../../orders/refund";
import type { LineSubject, OrderSubject, RequestedLine } from "../../orders/resolve";
import type { VoucherSubject } from "../../vouchers/tender";

/** A line in a body: its kind's list holds the id of what it sells, its price and quantity. */
interface LineBody {
  price: number;
  quantity: number;
  staffer_uuid?: string | undefined;
  booking_uuid?: string | undefined;
}

const toLine = (kind: OrderLine["kind"], refId: string, l: LineBody): RequestedLine => ({
  kind,
  refId,
  price: l.price,
  quantity: l.quantity,
  stafferId: l.staffer_uuid ?? null,
  bookingId: l.booking_uuid ?? null,
});

/** A list of offered vouchers in a body, by the list's name (`vouchers`, `payment_vouchers`). */
export const voucherFields = (list: string): FieldNames<VoucherSubject> => ({
  "voucher code": ({ voucher }) => `${list}.${voucher}.code`,
  "voucher amount": ({ voucher }) => `${list}.${voucher}.amount`,
});

/** The goods, services, vouchers and packages of a request body as one list, in that order. */
export function requestedLines(body: {
  goods?: (LineBody & { good_uuid: string })[] | undefined;
  services?: (LineBody & { service_uuid: string })[] | undefined;
  vouchers?: (LineBody & { voucher_template_uuid: string })[] | undefined;
  packages?: (LineBody & { package_uuid: string })[] | undefined;
}): RequestedLine[] {
  return [
    ...(body.goods ?? []).map((l) => toLine("good", l.good_uuid, l)),
    ...(body.services ?? []).map((l) => toLine("service", l.service_uuid, l)),
    ...(body.vouchers ?? []).map((l) => toLine("voucher", l.voucher_template_uuid, l)),
    ...(body.packages ?? []).map((l) => toLine("package", l.package_uuid, l)),
  ];
}

/** Each kind of line: the body's list of them, and the field naming what a line sells. */
const LINE_LISTS: Record<OrderLine["kind"], { list: string; id: string }> = {
  good: { list: "goods", id: "good_uuid" },
  service: { list: "services", id: "service_uuid" },
  voucher: { list: "vouchers", id: "voucher_template_uuid" },
  package: { list: "packages", id: "package_uuid" },
};

const inLine = (field: (id: string) => string) => (about: LineSubject) => {
  const { list, id } = LINE_LISTS[about.kind];
  return `${list}.${about.index}.${field(id)}`;
};

/** The lines of create and calculate, by kind and position: `goods.1.staffer_uuid`. */
const LINE_FIELDS: FieldNames<LineSubject> = {
  line: inLine((id) => id),
  "line staffer": inLine(() => "staffer_uuid"),
  "line booking": inLine(() => "booking_uuid"),
};

/** What create and calculate name alike: the branch, the lines, the promocode, the terms. */
const ORDER_FIELDS: FieldNames<OrderSubject> = {
  ...LINE_FIELDS,
  location: "location_uuid",
  promocode: "promocode",
  vouchers: "vouchers",
  packages: "packages",
  discount: "discount_amount",
  "promocode discount": "promocode_discount_amount",
};

/** POST /orders: the seller is `staffer_uuid`. */
export const CREATE_FIELDS: FieldNames<CreateOrderSubject> = {
  ...ORDER_FIELDS,
  seller: "staffer_uuid",
  customer: "customer_uuid",
};

/** POST /orders/calculate: the vouchers to pay with are `payment_vouchers`. */
export const CALCULATE_FIELDS: FieldNames<CalculateSubject> = {
  ...ORDER_FIELDS,
  ...voucherFields("payment_vouchers"),
};

/**
 * POST /orders/{uuid}/pay: the vouchers to pay with are `vouchers`, which
 * also carries the refusal of an order that would issue too many.
 */
export const PAY_FIELDS: FieldNames<PaySubject> = {
  vouchers: "vouchers",
  account: "account_uuid",
  ...voucherFields("vouchers"),
};

/** POST /orders/{uuid}/refund. */
export const REFUND_FIELDS: FieldNames<RefundSubject> = { account: "account_uuid" };
