import { describe, expect, it } from 'vitest';
import type { Timeline } from '#shared/features/results/results';
import { closeLabel, timelineRows } from './results-timeline';

const bucket = (at: string, fa: number, running: number) => ({ at, votes: { FA: fa }, running: { FA: running } });

/** A day closed at 6:00 p. m. (22:00 UTC), with votes before it and a late arrival after it. */
const CLOSED: Timeline = {
  candidates: [{ code: 'FA', name: 'Fernando Álvarez', colour: '#1D4ED8' }],
  denominator: 5373,
  day: '2026-12-06',
  dayStartsAt: '2026-12-06T04:00:00.000Z',
  before: { FA: 0 },
  buckets: [
    bucket('2026-12-06T21:30:00.000Z', 3, 3),
    bucket('2026-12-06T21:45:00.000Z', 2, 5),
    bucket('2026-12-06T22:00:00.000Z', 1, 6),
  ],
  closedAt: '2026-12-06T22:00:00.000Z',
  computedAt: '2026-12-06T22:05:00.000Z',
};

describe('the timeline’s close', () => {
  it('puts the close’s row where it falls: after the last quarter before it, before the late arrivals', () => {
    const { rows, close } = timelineRows(CLOSED);
    expect(rows.map((r) => r[0])).toEqual(['5:30 p. m.', '5:45 p. m.', 'Cierre 6:00 p. m.', '6:00 p. m.']);
    expect(close).toBe(2);
    expect(rows[2]).toEqual(['Cierre 6:00 p. m.', 'Cierre de la jornada', '', '']);
    // An open day has no such row.
    expect(timelineRows({ ...CLOSED, closedAt: null })).toMatchObject({ close: null, rows: { length: 3 } });
  });

  it('names the close by its time in Caracas, and nothing while the day is open (the chart’s mark; drawn in the end-to-end test)', () => {
    expect(closeLabel(CLOSED)).toBe('Cierre 6:00 p. m.');
    expect(closeLabel({ ...CLOSED, closedAt: null })).toBeNull();
  });
});
