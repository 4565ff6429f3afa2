// The test-only control API under /_local/ (never part of Stripe's API; README.md lists it).
import { expireSession, payCheckout } from "./checkout";
import type { Ctx } from "./context";
import { StripeError } from "./errors";
import { NO_REQUEST } from "./events";
import { refundPayment } from "./payments";
import type { Fault } from "./state";

export interface ControlAnswer {
  status: number;
  body: unknown;
}

const ok = (body: unknown): ControlAnswer => ({ status: 200, body });
const bad = (message: string, status = 400): ControlAnswer => ({
  status,
  body: { error: { message } },
});

export function handleControl(
  ctx: Ctx,
  method: string,
  url: URL,
  body: Record<string, unknown>,
): ControlAnswer {
  const ws = url.searchParams.get("workspace");
  const path = url.pathname.slice("/_local".length);
  const ctl = { ...ctx, request: NO_REQUEST };
  try {
    if (method === "GET" && path === "/deliveries") {
      if (!ws) return bad("workspace is required");
      return ok(ctx.outbox.take(ws));
    }
    if (method === "GET" && path === "/requests") {
      return ok(ctx.state.requests.filter((r) => !ws || r.workspace === ws));
    }
    if (method === "GET" && path === "/ledger") {
      const entries = ctx.state.ledger.filter((e) => !ws || e.workspace === ws);
      const sum = (kind: string) =>
        entries.filter((e) => e.kind === kind).reduce((n, e) => n + e.amount, 0);
      return ok({
        entries,
        charged: sum("charge_succeeded"),
        refunded: sum("refund"),
        failed: entries.filter((e) => e.kind === "charge_failed").length,
        payments: entries.filter((e) => e.kind === "charge_succeeded").length,
        refunds: entries.filter((e) => e.kind === "refund").length,
      });
    }
    const pay = /^\/checkout\/([^/]+)\/pay$/.exec(path);
    if (method === "POST" && pay) {
      const card = typeof body.card === "string" ? body.card : "";
      const outcome = payCheckout(ctl, pay[1] ?? "", {
        number: card,
        name: typeof body.name === "string" ? body.name : null,
      });
      return ok(
        outcome.status === "complete"
          ? { status: "complete", redirect: outcome.redirect }
          : { status: outcome.status, redirect: null, message: outcome.message },
      );
    }
    const expire = /^\/checkout\/([^/]+)\/expire$/.exec(path);
    if (method === "POST" && expire) {
      const session = ctx.state.session(expire[1] ?? "");
      if (!session) return bad("no such checkout session", 404);
      return ok(expireSession(ctl, session));
    }
    if (method === "POST" && path === "/dashboard-refund") {
      const amount = typeof body.amount === "number" ? body.amount : undefined;
      const pi = typeof body.payment_intent === "string" ? body.payment_intent : "";
      return ok(refundPayment(ctl, pi, amount, {}, null, "dashboard"));
    }
    if (method === "POST" && path === "/faults") {
      const fault: Fault = {
        method: String(body.method ?? "POST").toUpperCase(),
        path: String(body.path ?? "/v1/"),
        when:
          body.when === "after" || body.when === "delay" || body.when === "decline"
            ? body.when
            : "before",
        times: typeof body.times === "number" ? body.times : 1,
        delayMs: typeof body.delayMs === "number" ? body.delayMs : 0,
        workspace: typeof body.workspace === "string" ? body.workspace : null,
      };
      ctx.state.faults.push(fault);
      return ok(fault);
    }
    if (method === "DELETE" && path === "/faults") {
      ctx.state.faults = [];
      return ok({ cleared: true });
    }
    return bad(`unknown control route ${method} ${url.pathname}`, 404);
  } catch (error) {
    if (error instanceof StripeError) return { status: error.status, body: error.body };
    throw error;
  }
}
