import { newId, nowSeconds } from "../ids";
import type { Customer } from "../objects";
import { metadataOf, str } from "./params";
import type { Route } from "./route";

export const createCustomer: Route = {
  method: "post",
  path: "/v1/customers",
  handle: (ctx, p) =>
    ctx.state.put<Customer>({
      id: newId("cus", 14),
      object: "customer",
      created: nowSeconds(),
      email: str(p, "email"),
      name: str(p, "name"),
      phone: str(p, "phone"),
      description: str(p, "description"),
      livemode: false,
      metadata: metadataOf(p),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null },
    }),
};
