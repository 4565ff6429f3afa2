import { type RouteHandler, z } from "@hono/zod-openapi";
import { defineRoute } from "../../../http/operations";
import { vouchersByCodes } from "../../queries/vouchers";
import { normaliseCode } from "../../rules";
import type { PublicEnv } from "../../../http/env";
import { notFound } from "../../../platform/errors";
import { authErrors, json, notFoundError, queryErrors } from "../../../http/responses";
import { renderVoucher, VoucherSchema } from "../../views/voucher";

const VoucherPath = z.object({
  code: z
    .string()
    .max(64, "At most 64 characters.")
    .openapi({ param: { name: "code", in: "path" }, example: "7KQ2-M9XH-C4TA-3WNE" }),
});

export const route = defineRoute({
  operationId: "getVoucher",
  keys: "secret",
  method: "get",
  path: "/vouchers/{code}",
  tags: ["Vouchers"],
  summary: "Look up a voucher by its code",
  description:
    "Case, spaces and dashes in the code do not matter. Another workspace's voucher is not found.",
  request: { params: VoucherPath },
  responses: {
    200: json(VoucherSchema, "The voucher"),
    ...authErrors,
    ...queryErrors,
    ...notFoundError("voucher"),
  },
});

export const handler: RouteHandler<typeof route, PublicEnv> = async (c) => {
  const code = normaliseCode(c.req.valid("param").code);
  const [voucher] = code ? await vouchersByCodes(c.var.deps.scope, [code]) : [];
  if (!voucher) throw notFound("Voucher");
  return c.json(renderVoucher(voucher), 200);
};
