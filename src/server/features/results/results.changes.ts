import type {
  Breakdown,
  BreakdownChange,
  Timeline,
  TimelineBucket,
  TimelineChange,
} from '#shared/features/results/results';

/*
 * What the live stream sends of the map's and the timeline's figures (decision 087): the whole answer when
 * a stream opens, then, after each change, only the part that changed, worked out once for every screen.
 * The browser applies them with applyBreakdownChange and applyTimelineChange (shared/features/results).
 */

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The rows of `next` that differ from `kept`; everything when the departments or candidates changed; undefined when nothing did. */
export function breakdownChange(kept: Breakdown | undefined, next: Breakdown): BreakdownChange | undefined {
  const shape = (b: Breakdown) => [b.candidates, b.rows.map((r) => [r.slug, r.title])];
  if (!kept || !same(shape(kept), shape(next))) return { ...next, whole: true };
  const before = new Map(kept.rows.map((r) => [r.slug, r]));
  const rows = next.rows.filter((r) => !same(before.get(r.slug), r));
  return rows.length > 0 ? { ...next, rows, whole: false } : undefined;
}

/**
 * The quarters of `next` that are new or differ from `kept`, with the rest of the answer as it is now;
 * everything when the day or the candidates changed or a quarter went; undefined when nothing changed.
 */
export function timelineChange(kept: Timeline | undefined, next: Timeline): TimelineChange | undefined {
  const shape = (t: Timeline) => [t.candidates, t.day, t.dayStartsAt];
  const nextAt = new Set(next.buckets.map((b) => b.at));
  if (!kept || !same(shape(kept), shape(next)) || kept.buckets.some((b) => !nextAt.has(b.at))) {
    return { ...next, whole: true };
  }
  const before = new Map<string, TimelineBucket>(kept.buckets.map((b) => [b.at, b]));
  const buckets = next.buckets.filter((b) => !same(before.get(b.at), b));
  const rest = (t: Timeline) => [t.denominator, t.before, t.closedAt];
  if (buckets.length === 0 && same(rest(kept), rest(next))) return undefined;
  return { ...next, buckets, whole: false };
}
