/**
 * The map's colour scales. Each is one hue from light to dark (ColorBrewer's Blues and Oranges), so
 * the order reads in lightness alone: the same for every kind of colour blindness and in grey print.
 * The text on a square is black or white, whichever stands out more; both scales keep it at 4.5:1 or
 * more (tile-colours.test.ts checks every step).
 */

export const INK = '#1c1917';
export const PAPER = '#ffffff';

/** One step of a scale: its colour, the text on it, and what it means in words. */
export interface ColourStep {
  fill: string;
  text: string;
  label: string;
}

/** WCAG relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio of two #rrggbb colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white, whichever reads better on `fill`. */
export const textOn = (fill: string) => (contrastRatio(fill, INK) >= contrastRatio(fill, PAPER) ? INK : PAPER);

const step = (fill: string, label: string): ColourStep => ({ fill, text: textOn(fill), label });

/** Share of records validated, in five steps of 20 points. */
export const SHARE_STEPS: readonly ColourStep[] = [
  step('#eff3ff', '0 – 20 %'),
  step('#bdd7e7', '20 – 40 %'),
  step('#6baed6', '40 – 60 %'),
  step('#2171b5', '60 – 80 %'),
  step('#08519c', '80 – 100 %'),
];

/** A department without records: no colour of the scale, and said in words, never '0 %'. */
export const NO_RECORDS: ColourStep = { fill: '#e7e5e4', text: INK, label: 'sin registros' };

/** The step of a share (0 to 100): 20 % and over is the second step, 100 % the last. */
export function shareStep(percent: number): ColourStep {
  const index = Math.min(SHARE_STEPS.length - 1, Math.max(0, Math.floor(percent / 20)));
  return SHARE_STEPS[index] as ColourStep;
}

/** Items waiting on phones: none, then more and more. */
export const WAITING_STEPS: readonly (ColourStep & { from: number })[] = [
  { ...step('#ffffff', 'nada por enviar'), from: 0 },
  { ...step('#fdd0a2', '1 – 9 por enviar'), from: 1 },
  { ...step('#fdae6b', '10 – 49 por enviar'), from: 10 },
  { ...step('#e6550d', '50 – 199 por enviar'), from: 50 },
  { ...step('#a63603', '200 o más por enviar'), from: 200 },
];

export function waitingStep(waiting: number): ColourStep {
  let found = WAITING_STEPS[0] as ColourStep;
  for (const s of WAITING_STEPS) if (waiting >= s.from) found = s;
  return found;
}

/**
 * Line styles of the candidates on the timeline: their own colour, and a dash of their own, so two
 * candidates whose colours look alike to someone are still told apart (and named in the legend).
 */
export const SERIES_DASHES: readonly (number[] | undefined)[] = [undefined, [10, 5], [2, 4], [12, 4, 2, 4]];
