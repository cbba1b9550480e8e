import { describe, expect, it } from 'vitest';
import {
  applyBreakdownChange,
  applyTimelineChange,
  type Breakdown,
  type BreakdownRow,
  type Timeline,
} from '#shared/features/results/results';
import { breakdownChange, timelineChange } from './results.changes';

const candidates = [{ code: 'FA', name: 'Fernando Álvarez', colour: '#1D4ED8' }];
const row = (slug: string, voted: number, photos = 0): BreakdownRow => ({
  slug,
  title: slug.toUpperCase(),
  total: 10,
  voted,
  validated: 0,
  percentComplete: 0,
  reviewed: 0,
  votes: { FA: voted },
  photos,
});
const breakdown = (rows: BreakdownRow[]): Breakdown => ({ candidates, rows, computedAt: '2026-12-06T14:00:00.000Z' });
const bucket = (at: string, votes: number, running: number) => ({ at, votes: { FA: votes }, running: { FA: running } });
const timeline = (buckets: Timeline['buckets'], closedAt: string | null = null): Timeline => ({
  candidates,
  denominator: 5373,
  day: '2026-12-06',
  dayStartsAt: '2026-12-06T04:00:00.000Z',
  before: { FA: 0 },
  buckets,
  closedAt,
  computedAt: '2026-12-06T14:00:00.000Z',
});

describe('what the live stream sends of the map', () => {
  it('sends only the rows that changed, and the screen that applies them has the whole answer', () => {
    const before = breakdown([row('mara', 1), row('sucre', 2), row('baralt', 0)]);
    const after = breakdown([row('mara', 1), row('sucre', 3), row('baralt', 0, 1)]);
    const change = breakdownChange(before, after);
    expect(change).toMatchObject({ whole: false, rows: [row('sucre', 3), row('baralt', 0, 1)] });
    expect(applyBreakdownChange(before, change!)).toEqual(after);
    expect(breakdownChange(after, { ...after, computedAt: 'later' })).toBeUndefined();
  });

  it('sends everything at first and when the departments change; a screen with nothing waits for that', () => {
    const before = breakdown([row('mara', 1)]);
    const after = breakdown([row('mara', 1), row('nueva', 0)]);
    expect(breakdownChange(undefined, before)).toEqual({ ...before, whole: true });
    expect(breakdownChange(before, after)).toEqual({ ...after, whole: true });
    expect(applyBreakdownChange(undefined, { ...after, rows: [], whole: false })).toBeUndefined();
  });
});

describe('what the live stream sends of the timeline', () => {
  const one = bucket('2026-12-06T13:45:00.000Z', 4, 4);
  it('sends only the new or changed quarters with the rest as it is now', () => {
    const before = timeline([one, bucket('2026-12-06T14:00:00.000Z', 1, 5)]);
    const after = timeline([one, bucket('2026-12-06T14:00:00.000Z', 2, 6), bucket('2026-12-06T14:15:00.000Z', 1, 7)]);
    const change = timelineChange(before, after);
    expect(change?.whole).toBe(false);
    expect(change?.buckets.map((b) => b.at)).toEqual(['2026-12-06T14:00:00.000Z', '2026-12-06T14:15:00.000Z']);
    expect(applyTimelineChange(before, change!)).toEqual(after);
    expect(timelineChange(after, { ...after, computedAt: 'later' })).toBeUndefined();
  });

  it('sends the close with no quarter when only the close changed', () => {
    const before = timeline([one]);
    const closed = timeline([one], '2026-12-06T22:00:00.000Z');
    const change = timelineChange(before, closed);
    expect(change).toMatchObject({ whole: false, buckets: [], closedAt: '2026-12-06T22:00:00.000Z' });
    expect(applyTimelineChange(before, change!)).toEqual(closed);
  });

  it('sends everything when a quarter went (a vote of it voided) or the day changed', () => {
    const before = timeline([one, bucket('2026-12-06T14:00:00.000Z', 1, 5)]);
    const after = timeline([bucket('2026-12-06T14:00:00.000Z', 1, 1)]);
    expect(timelineChange(before, after)).toEqual({ ...after, whole: true });
    const nextDay = { ...timeline([]), day: '2026-12-07', dayStartsAt: '2026-12-07T04:00:00.000Z' };
    expect(timelineChange(after, nextDay)).toEqual({ ...nextDay, whole: true });
    expect(applyTimelineChange(after, { ...nextDay, whole: false })).toBeUndefined();
  });
});
