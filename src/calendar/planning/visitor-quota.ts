import { isGuardFailure } from "../../db/constraints";
import { guard } from "../../db/guards";
import type { Scope } from "../../db/scope";
import type { Condition } from "../../db/statement";
import type { ApiError } from "../../platform/errors";

/** What a publishable visitor has used of one quota, and when the next unit of it frees. */
export interface QuotaUse {
  used: number;
  /** Epoch ms at which `used` next drops (the Retry-After of a refusal); null when none is used. */
  frees: number | null;
}

/** One per-visitor quota: how its use is counted, in a read and inside a write batch. */
export interface QuotaSpec {
  limit: number;
  count: () => Promise<QuotaUse>;
  /** Batch condition: `adding` more still fit (the same rows `count` counts). */
  within: (adding: number) => Condition;
  refuse: (frees: number | null) => ApiError;
}

/**
 * A publishable visitor's quota (live holds, bookings of the day): the count
 * read beside the planning read refuses the common case before any calendar
 * is asked; a guard in the write itself decides it for requests fired at
 * once (D1 runs one batch at a time); after a refused write a fresh count
 * tells the quota's guard from another one.
 */
export class VisitorQuota {
  private constructor(
    private readonly scope: Scope,
    private readonly spec: QuotaSpec,
    private readonly use: QuotaUse,
  ) {}

  /** Reads the visitor's use; null for staff (no quota). */
  static async read(scope: Scope, spec: QuotaSpec | null): Promise<VisitorQuota | null> {
    return spec ? new VisitorQuota(scope, spec, await spec.count()) : null;
  }

  /** 429 unless `adding` more fit, as the read said. */
  check(adding: number): void {
    if (this.use.used + adding > this.spec.limit) throw this.spec.refuse(this.use.frees);
  }

  /** The batch statement that aborts the write unless `adding` more still fit. */
  guard(adding: number) {
    return guard(this.scope, this.spec.within(adding));
  }

  /** After a refused write: 429 when the quota's guard refused; otherwise returns, for the caller. */
  async explain(error: unknown, adding: number): Promise<void> {
    if (!isGuardFailure(error)) return;
    const now = await this.spec.count();
    if (now.used + adding > this.spec.limit) throw this.spec.refuse(now.frees);
  }
}

/** Retry-After in whole seconds, at least one. */
export const retryAfter = (frees: number | null) =>
  String(Math.max(1, Math.ceil(((frees ?? Date.now()) - Date.now()) / 1000)));
