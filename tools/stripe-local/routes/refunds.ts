import { invalidRequest, resourceMissing } from "../errors";
import type { Refund } from "../objects";
import { refundPayment } from "../payments";
import { int, metadataOf, str } from "./params";
import type { Route } from "./route";

export const createRefund: Route = {
  method: "post",
  path: "/v1/refunds",
  handle: (ctx, p) => {
    const pi = str(p, "payment_intent");
    if (!pi)
      throw invalidRequest(
        "stripe-local refunds by payment_intent only.",
        "payment_intent",
        "parameter_missing",
      );
    return refundPayment(
      ctx,
      pi,
      int(p, "amount"),
      metadataOf(p),
      (str(p, "reason") as Refund["reason"]) ?? null,
      "api",
    );
  },
};

export const retrieveRefund: Route = {
  method: "get",
  path: "/v1/refunds/{refund}",
  handle: (ctx, _p, path) => {
    const refund = ctx.state.get<Refund>(path.refund ?? "", "refund");
    if (!refund) throw resourceMissing("refund", path.refund ?? "", "refund");
    return refund;
  },
};
