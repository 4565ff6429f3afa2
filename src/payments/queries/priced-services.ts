import { services } from "../../db/schema";
import { idIn } from "../../db/bounded";
import { type Scope, whereByKey } from "../../db/scope";

/** The services' prices and payment policies (what a booking's share of a payment is computed from). */
export const pricedServices = (scope: Scope, ids: readonly string[]) =>
  scope.db
    .select({
      id: services.id,
      price: services.price,
      priceDiscount: services.priceDiscount,
      paymentPolicy: services.paymentPolicy,
    })
    .from(services)
    .where(whereByKey(scope, services, idIn(services.id, ids)));
