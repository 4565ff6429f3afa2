import { createSession, expireSessionRoute, retrieveSession } from "./checkout-sessions";
import { createCustomer } from "./customers";
import { createPaymentIntent, retrievePaymentIntent } from "./payment-intents";
import { createRefund, retrieveRefund } from "./refunds";
import type { Route } from "./route";
import { retrieveSetupIntent } from "./setup-intents";

export const ROUTES: Route[] = [
  createCustomer,
  createSession,
  retrieveSession,
  expireSessionRoute,
  createPaymentIntent,
  retrievePaymentIntent,
  retrieveSetupIntent,
  createRefund,
  retrieveRefund,
];

/** The route a method and path name, with the path's parameters. */
export function matchRoute(method: string, pathname: string) {
  for (const route of ROUTES) {
    if (route.method !== method.toLowerCase()) continue;
    const names: string[] = [];
    const pattern = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
      names.push(name);
      return "([^/]+)";
    });
    const match = new RegExp(`^${pattern}$`).exec(pathname);
    if (!match) continue;
    const path: Record<string, string> = {};
    names.forEach((name, i) => (path[name] = decodeURIComponent(match[i + 1] ?? "")));
    return { route, path };
  }
  return null;
}
