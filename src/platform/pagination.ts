import { z } from "@hono/zod-openapi";

export const MAX_PER_PAGE = 100;
export const DEFAULT_PER_PAGE = 15;
/**
 * The last page a list serves: far past any real list (10^8 rows at 100 a
 * page), and it keeps the offset an exact integer however many digits are sent.
 */
export const MAX_PAGE = 1_000_000;

/** A query integer from 1 to `max`; the document says both bounds. */
const positiveInt = (field: string, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `The ${field} must be a positive integer.`)
    .transform(Number)
    .pipe(
      z
        .number()
        .int()
        .min(1, `The ${field} must be at least 1.`)
        .max(max, `The ${field} may not be greater than ${max}.`),
    )
    .openapi({ type: "integer", minimum: 1, maximum: max });

/** `limit` is an alias of `per_page` (the reference); per_page wins when both are sent. */
export const PaginationQuery = z.object({
  page: positiveInt("page", MAX_PAGE)
    .optional()
    .openapi({ example: 1, description: `1..${MAX_PAGE}, default 1` }),
  per_page: positiveInt("per_page", MAX_PER_PAGE)
    .optional()
    .openapi({
      example: DEFAULT_PER_PAGE,
      description: `1..${MAX_PER_PAGE}, default ${DEFAULT_PER_PAGE}`,
    }),
  limit: positiveInt("limit", MAX_PER_PAGE)
    .optional()
    .openapi({ description: `Alias of per_page: 1..${MAX_PER_PAGE}` }),
});

export interface PageRequest {
  page: number;
  perPage: number;
  offset: number;
}

export function pageRequest(query: z.infer<typeof PaginationQuery>): PageRequest {
  const page = query.page ?? 1;
  const perPage = query.per_page ?? query.limit ?? DEFAULT_PER_PAGE;
  return { page, perPage, offset: (page - 1) * perPage };
}

const PageLink = z.object({ url: z.string().nullable(), label: z.string(), active: z.boolean() });

export const paginated = <T extends z.ZodType>(item: T, name: string) =>
  z
    .object({
      data: z.array(item),
      links: z.object({
        first: z.string(),
        last: z.string(),
        prev: z.string().nullable(),
        next: z.string().nullable(),
      }),
      meta: z.object({
        current_page: z.number().int(),
        from: z.number().int().nullable(),
        last_page: z.number().int(),
        links: z.array(PageLink),
        path: z.string(),
        per_page: z.number().int(),
        to: z.number().int().nullable(),
        total: z.number().int(),
      }),
    })
    .openapi(name);

export type Paginated<T> = {
  data: T[];
  links: { first: string; last: string; prev: string | null; next: string | null };
  meta: {
    current_page: number;
    from: number | null;
    last_page: number;
    links: z.infer<typeof PageLink>[];
    path: string;
    per_page: number;
    to: number | null;
    total: number;
  };
};

/** Page numbers shown in meta.links: all of them when few, else a window with gaps. */
function pageNumbers(current: number, last: number): (number | null)[] {
  if (last <= 10) return Array.from({ length: last }, (_, i) => i + 1);
  const wanted = new Set([1, 2, last - 1, last]);
  for (let p = current - 2; p <= current + 2; p++) if (p >= 1 && p <= last) wanted.add(p);
  const sorted = [...wanted].sort((a, b) => a - b);
  const out: (number | null)[] = [];
  sorted.forEach((p, i) => {
    const previous = sorted[i - 1];
    if (previous !== undefined && p - previous > 1) out.push(null);
    out.push(p);
  });
  return out;
}

/** The Laravel length-aware paginator envelope the reference shows. */
export function paginate<T>(
  requestUrl: string,
  items: T[],
  total: number,
  request: PageRequest,
): Paginated<T> {
  const url = new URL(requestUrl);
  const path = `${url.origin}${url.pathname}`;
  const lastPage = Math.max(1, Math.ceil(total / request.perPage));
  const pageUrl = (page: number) => {
    const u = new URL(url);
    u.searchParams.set("page", String(page));
    return u.toString();
  };
  const from = items.length > 0 ? request.offset + 1 : null;
  const to = items.length > 0 ? request.offset + items.length : null;
  const prev = request.page > 1 ? pageUrl(Math.min(request.page - 1, lastPage)) : null;
  const next = request.page < lastPage ? pageUrl(request.page + 1) : null;
  return {
    data: items,
    links: { first: pageUrl(1), last: pageUrl(lastPage), prev, next },
    meta: {
      current_page: request.page,
      from,
      last_page: lastPage,
      links: [
        { url: prev, label: "« Previous", active: false },
        ...pageNumbers(request.page, lastPage).map((p) =>
          p === null
            ? { url: null, label: "...", active: false }
            : { url: pageUrl(p), label: String(p), active: p === request.page },
        ),
        { url: next, label: "Next »", active: false },
      ],
      path,
      per_page: request.perPage,
      to,
      total,
    },
  };
}
