import { accountRead, creditAccount } from "../queries/accounts";
import { stockMoves } from "../queries/stock";
import type { Scope } from "../../db/scope";
import { named, nothing } from "../../db/reads";
import { paymentMethodFor, requiresAction } from "../rules/accounts";
import { invoiceOf, MAX_VOUCHERS_PER_ORDER, voucherValuesOf } from "../rules";
import { problem } from "../../platform/rules/problems";
import { ApiError, InvalidError, invalid } from "../../platform/errors";
import { assertAccountChangeFits } from "../../platform/money-limits";
import type { PosOrder } from "../views/pos-order-schema";
import { issueVouchers } from "../vouchers/issue";
import {
  balancesMoved,
  offeredRead,
  spendTender,
  splitTender,
  tenderOffers,
  type VoucherOffer,
  voucherBalanceChanged,
  type VoucherSubject,
} from "../vouchers/tender";
import { changeOrder } from "./change";
import { orderSold } from "./revenue";
import { tooManyVouchers, voucherUnits } from "./resolve";

export interface PayRequest {
  /** The cash or card account that takes what the vouchers leave; required when anything is left. */
  accountId: string | null;
  /** Spent first, in this order. */
  vouchers: VoucherOffer[];
}

/**
 * What a payment can be wrong about: the account, the vouchers offered, and
 * the vouchers the order would issue (too many, on orders older than the cap).
 */
export type PaySubject = { is: "account" } | { is: "vouchers" } | VoucherSubject;

const notOpen = () => new ApiError("order_not_open", "Only an open order can be paid.");

/**
 * Settles an open POS order in full: the vouchers offered first, then the
 * account for the rest. One batch marks it paid, spends the vouchers, credits
 * the account, issues the vouchers and packages it sold, takes the goods out of the
 * branch's stock and records `order-paid`. Guards at its head (the order's
 * version, each voucher's balance) make a concurrent payment of the same
 * order, or of the same voucher, roll back whole instead of paying twice.
 *
 * The loser retries once on fresh state, which is usually "already paid"; if
 * a voucher it offered was spent meanwhile it answers 409 instead, rather
 * than quietly charging the account what the voucher no longer covers.
 *
 * Stock may go below zero: the goods are already in the customer's hands, so
 * refusing the sale would only hide a miscount, which the negative stock shows.
 */
export function payPosOrder(scope: Scope, orderId: string, req: PayRequest): Promise<PosOrder> {
  return changeOrder(scope, orderId, {
    name: "pay",
    gaveUp: notOpen,
    reads: (scope) => accountAndVouchers(scope, req),
    plan: ({ order, lines, sale }, { now, reads, previous }) => {
      if (order.status !== "open") throw notOpen();
      if (lines.some((l) => l.kind === "service" && l.bookingId !== null))
        throw new ApiError(
          "order_has_booked_services",
          "The order has a service linked to a booking; settle it by completing the booking.",
        );
      // Orders opened before the cap existed may still exceed it.
      if (voucherUnits(lines) > MAX_VOUCHERS_PER_ORDER)
        throw invalid({ is: "vouchers" }, tooManyVouchers);
      const values = voucherValuesOf({ order, lines });
      // First, so that an order a till may not take (a membership: 409 card_required) writes nothing.
      const sells = sale.sell(order, lines, values, now);
      const { account } = reads;
      if (req.accountId !== null) {
        if (!account) throw invalid({ is: "account" }, "Unknown account.");
        if (account.locationId !== order.locationId)
          throw invalid({ is: "account" }, "The account belongs to another branch.");
        if (requiresAction(account.type))
          throw new InvalidError(
            [problem({ is: "account" }, "The account needs an out-of-band payment action.")],
            {
              code: "account_requires_action",
              message:
                "This account takes payments out of band (QR or online); pay on a cash or card account.",
            },
          );
      }
      const tender = tenderOffers(req.vouchers, reads.vouchers);
      // A retry after another payment spent one of the vouchers answers 409 rather than
      // quietly charging the account what the voucher no longer covers.
      if (previous && balancesMoved(tenderOffers(req.vouchers, previous.vouchers), tender))
        throw voucherBalanceChanged();

      const split = splitTender(invoiceOf({ order, lines }).amount_due, tender);
      // The account is the payer unless the vouchers paid it all (a free order still names its till).
      const payer = split.account > 0 || split.voucher === 0 ? account : null;
      if (split.account > 0 && !payer)
        throw invalid(
          { is: "account" },
          `Required: ${split.account} is left to pay after the vouchers.`,
        );
      if (payer) assertAccountChangeFits(payer.balance, split.account, { is: "account" });
      const on = { orderId: order.id, bookingId: null, at: now };
      const paymentMethod = payer
        ? paymentMethodFor(payer.type)
        : split.voucher > 0
          ? "voucher"
          : null;
      return {
        event: "order-paid",
        from: "open",
        order: {
          status: "paid",
          accountId: payer?.id ?? null,
          paymentMethod,
          accountPaidAmount: order.accountPaidAmount + split.account,
          voucherPaidAmount: order.voucherPaidAmount + split.voucher,
          paidAt: now,
        },
        issues: issueVouchers(scope, order.id, lines, values, now),
        sells,
        moves: [
          ...(payer
            ? creditAccount(scope, { accountId: payer.id, amount: split.account, ...on })
            : []),
          ...spendTender(scope, tender, split, on),
          ...stockMoves(scope, order.locationId, lines, -1),
          ...orderSold(scope, { ...order, paymentMethod }, lines, now),
        ],
      };
    },
  });
}

/** The account named (none when null) and the vouchers offered, read with the order. */
const accountAndVouchers = (scope: Scope, req: PayRequest) =>
  named({
    account: req.accountId !== null ? accountRead(scope, req.accountId) : nothing(null),
    vouchers: req.vouchers.length > 0 ? offeredRead(scope, req.vouchers) : nothing([]),
  });
