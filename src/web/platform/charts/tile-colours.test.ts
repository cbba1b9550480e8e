import { describe, expect, it } from 'vitest';
import { MARACAIBO_PARISHES } from '#shared/platform/parishes';
import { contrastRatio, NO_RECORDS, SHARE_STEPS, shareStep, WAITING_STEPS, waitingStep } from './tile-colours';
import { ZULIA_LAKE, ZULIA_TILES } from './zulia-tiles';

describe('the map’s colours', () => {
  it('keep the text on every step at 4.5:1 or more', () => {
    for (const step of [...SHARE_STEPS, NO_RECORDS, ...WAITING_STEPS]) {
      expect(contrastRatio(step.fill, step.text), step.label).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('go from light to dark, so their order reads without telling hues apart', () => {
    const lightness = (steps: readonly { fill: string }[]) => steps.map((s) => contrastRatio(s.fill, '#000000'));
    for (const steps of [SHARE_STEPS, WAITING_STEPS]) {
      const l = lightness(steps);
      expect([...l].sort((a, b) => b - a)).toEqual(l);
    }
  });

  it('put a share in the step of 20 points it falls in, and counts waiting in theirs', () => {
    expect([0, 19.99, 20, 59.9, 60, 99.9, 100].map((p) => shareStep(p).label)).toEqual([
      '0 – 20 %',
      '0 – 20 %',
      '20 – 40 %',
      '40 – 60 %',
      '60 – 80 %',
      '80 – 100 %',
      '80 – 100 %',
    ]);
    expect([0, 1, 9, 10, 199, 200].map((n) => waitingStep(n).label)).toEqual([
      'nada por enviar',
      '1 – 9 por enviar',
      '1 – 9 por enviar',
      '10 – 49 por enviar',
      '50 – 199 por enviar',
      '200 o más por enviar',
    ]);
  });
});

describe('the tile map of Zulia', () => {
  it('has a square of its own for each of Maracaibo’s 18 parishes and the 19 other municipalities, none on the lake', () => {
    const places = Object.values(ZULIA_TILES);
    expect(places).toHaveLength(37);
    expect(new Set(places.map((p) => `${p.col},${p.row}`)).size).toBe(37);
    for (const [slug] of MARACAIBO_PARISHES) expect(ZULIA_TILES[slug], slug).toBeDefined();
    expect(
      places.filter((p) => p.col === ZULIA_LAKE.col && p.row >= ZULIA_LAKE.fromRow && p.row <= ZULIA_LAKE.toRow),
    ).toEqual([]);
  });
});
