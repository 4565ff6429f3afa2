import { RunCollector, type Runs } from "./free-runs";
import { greatestCommonDivisor } from "./lattice";
import type { Prepared } from "./prepared";
import type { CartService, Interval } from "./types";
import { busyLength, MINUTE } from "../../platform/rules/duration";

/**
 * The grid starts of a local day from which a cart could fit: the slot
 * grid of its first service's candidates (each working interval's start,
 * then every slot step), from `now` on, keeping only those where every
 * service, at its own offset, has a candidate free inside working hours
 * (and, outside group sessions, a free unit of each resource it requires).
 *
 * A superset of the starts `place` accepts (it ignores who was given the
 * earlier services, which never overlap the later ones, and lets a seat
 * share its session), exact for services without sessions; `place` still
 * decides. The cost is linear and sorts nothing: times are indexes of a
 * lattice every grid start and offset is a whole number of, and per
 * candidate list one pass over its free runs builds the envelope "latest
 * end of a run begun by then", which answers "is anyone free for `need`
 * from x" for every service of the list with one comparison per start.
 */
export function possibleStarts(
  p: Prepared,
  services: readonly CartService[],
  grid: readonly Interval[],
  now: number,
): number[] {
  const first = grid[0];
  if (!first || services.length === 0) return [];
  const step = Math.max(1, p.location.slotStepMin) * MINUTE;
  const earliest = Math.max(now, now + p.location.minNoticeMin * MINUTE);
  let lo = first.start;
  let hi = first.end;
  let unit = step;
  for (const w of grid) {
    unit = greatestCommonDivisor(unit, w.start - first.start);
    if (w.start < lo) lo = w.start;
    if (w.end > hi) hi = w.end;
  }
  const needs = services.map((s) => busyLength(s.durationMin, s.bufferMin));
  let fine = unit;
  let total = 0;
  for (const need of needs) {
    total += need;
    fine = greatestCommonDivisor(fine, total);
  }
  // Index k is the start lo + k·unit; grid starts lie before their interval's end.
  const size = Math.floor((hi - 1 - lo) / unit) + 1;
  const stride = (step / unit) | 0;

  // The grid itself: per working interval, its starts as a strided run of indexes.
  const onGrid = new Int32Array(size + stride);
  for (const w of grid) {
    const at = ((w.start - lo) / unit) | 0;
    const after = at + Math.ceil((w.end - w.start) / step) * stride;
    onGrid[at] = (onGrid[at] as number) + 1;
    onGrid[after] = (onGrid[after] as number) - 1;
  }
  for (let k = stride; k < size; k++)
    onGrid[k] = (onGrid[k] as number) + (onGrid[k - stride] as number);
  let alive: number[] = [];
  for (let k = Math.max(0, Math.ceil((earliest - lo) / unit)); k < size; k++)
    if ((onGrid[k] as number) > 0) alive.push(k);

  // Every x = start + offset is lo + j·fine for a j below fineSize.
  const fineSize = Math.floor((hi - 1 + total - lo) / fine) + 1;
  const lastDay = p.zone.local(hi + total).day;
  const envelopes = new Map<string, Float64Array>();
  const envelopeOf = (ids: readonly string[], plain: boolean) => {
    const key = `${p.listKey(ids)}${plain ? "p" : "a"}`;
    let envelope = envelopes.get(key);
    if (!envelope) {
      envelope = new Float64Array(fineSize).fill(Number.NEGATIVE_INFINITY);
      for (let day = p.zone.local(lo).day; day <= lastDay; day++)
        raise(envelope, p.dayRuns(ids, day, plain));
      envelopes.set(key, finish(envelope));
    }
    return envelope;
  };

  let offset = 0;
  services.forEach((service, i) => {
    const need = needs[i] as number;
    const shift = offset;
    const keep = (envelope: Float64Array) => {
      alive = alive.filter((k) => {
        const x = lo + k * unit + shift;
        return (envelope[((x - lo) / fine) | 0] as number) >= x + need;
      });
    };
    keep(envelopeOf(service.stafferIds, service.session !== undefined));
    // A seat may share its session's unit: only other services are narrowed by units.
    if (!service.session) {
      for (const rid of service.resourceIds ?? []) {
        const resource = p.resources.get(rid);
        if (!resource) {
          alive = [];
          break;
        }
        const units = new RunCollector();
        for (const u of resource.units) units.pushFreeOf(u.busy, lo + shift, hi + shift + need);
        const envelope = new Float64Array(fineSize).fill(Number.NEGATIVE_INFINITY);
        raise(envelope, units.runs());
        keep(finish(envelope));
      }
    }
    offset += need;
  });
  return alive.map((k) => lo + k * unit);

  /** Each run raises the envelope at the first lattice time at or after its start. */
  function raise(envelope: Float64Array, runs: Runs) {
    for (let i = 0; i < runs.length; i++) {
      const j = Math.max(0, Math.ceil(((runs.starts[i] as number) - lo) / fine));
      if (j < fineSize && (runs.ends[i] as number) > (envelope[j] as number))
        envelope[j] = runs.ends[i] as number;
    }
  }

  /** Latest end of the runs begun at or before each lattice time: a running maximum. */
  function finish(envelope: Float64Array): Float64Array {
    for (let j = 1; j < fineSize; j++)
      if ((envelope[j - 1] as number) > (envelope[j] as number))
        envelope[j] = envelope[j - 1] as number;
    return envelope;
  }
}
