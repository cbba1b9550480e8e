import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { TIME_ZONE } from '#shared/platform/constants';
import { formatTime } from '#shared/platform/format';
import { CHART_FONT, downloadCanvas, SHARE_MIN_WIDTH, sharePicture } from './download';
import { INK, SERIES_DASHES } from './tile-colours';

export interface ChartSeries {
  label: string;
  colour: string;
  values: number[];
}

export interface LineChartProps {
  /** Said by a screen reader instead of the drawing (the table under the chart has the figures). */
  label: string;
  /** The picture's title when downloaded. */
  title: string;
  /** Seconds since the epoch, one per point. */
  x: number[];
  series: ChartSeries[];
  /** How a value of the y axis is written. */
  yFormat: (value: number) => string;
  /** Steps (a count per quarter of an hour) instead of a line between the points. */
  stepped?: boolean;
  /** Height in CSS pixels. */
  height: number;
  /** Name of the downloaded picture, without extension. */
  fileName: string;
  /** A fixed upper end of the y axis (a percentage's 100); without it, the data decides. */
  yMax?: number;
  /** Bigger type for the projector. */
  large?: boolean;
  /** Moments marked with a vertical line and their label on the chart (the close: 'Cierre 6:00 p. m.'). */
  marks?: ChartMark[];
}

export interface ChartMark {
  /** Seconds since the epoch. */
  at: number;
  label: string;
}

const NO_MARKS: ChartMark[] = [];
/** The mark's dash, unlike every candidate's (SERIES_DASHES). */
const MARK_DASH = [2, 3];

interface ChartShape {
  width: number;
  height: number;
  series: ChartSeries[];
  stepped: boolean;
  yMax: number | undefined;
  large: boolean;
}

/** uPlot's options for a chart of this shape: the page's, and the larger one drawn for a download. */
function chartOptions(
  { width, height, series, stepped, yMax, large }: ChartShape,
  marks: () => ChartMark[],
  format: () => (value: number) => string,
): uPlot.Options {
  const font = `${large ? 18 : 12}px ${CHART_FONT}`;
  const axis = { stroke: INK, font, grid: { stroke: '#d6d3d1', width: 1 }, ticks: { stroke: '#a8a29e', width: 1 } };
  return {
    width,
    height,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), TIME_ZONE),
    scales: {
      // Wide enough for a mark after the last point (a close at the end of the day's last quarter).
      x: {
        time: true,
        range: (_u, min, max) => [min, Math.max(max, ...marks().map((m) => m.at))],
      },
      // From 0, with a little room above the highest point.
      y: { range: (_u, min, max) => [0, Math.max(yMax ?? 0, max * 1.1, min + 1)] },
    },
    hooks: {
      // Each mark: a dotted vertical line across the plot and its label at the top, in ink.
      draw: [
        (u) => {
          const ctx = u.ctx;
          const ratio = uPlot.pxRatio;
          for (const mark of marks()) {
            const left = Math.round(u.valToPos(mark.at, 'x', true));
            if (left < u.bbox.left - 1 || left > u.bbox.left + u.bbox.width + 1) continue;
            ctx.save();
            ctx.strokeStyle = INK;
            ctx.lineWidth = (large ? 3 : 2) * ratio;
            ctx.setLineDash(MARK_DASH.map((d) => d * ctx.lineWidth));
            ctx.beginPath();
            ctx.moveTo(left, u.bbox.top);
            ctx.lineTo(left, u.bbox.top + u.bbox.height);
            ctx.stroke();
            ctx.font = `bold ${(large ? 18 : 12) * ratio}px ${CHART_FONT}`;
            ctx.fillStyle = INK;
            ctx.textBaseline = 'top';
            // The axes leave their own alignment on the context.
            ctx.textAlign = 'left';
            const width = ctx.measureText(mark.label).width;
            // Left of the line when there is no room on its right.
            const textLeft =
              left + 4 * ratio + width > u.bbox.left + u.bbox.width ? left - 4 * ratio - width : left + 4 * ratio;
            ctx.fillText(mark.label, textLeft, u.bbox.top + 2 * ratio);
            ctx.restore();
          }
        },
      ],
    },
    axes: [
      // Times of day in Caracas, written as everywhere else in the app ('10:15 a. m.').
      {
        ...axis,
        size: large ? 56 : 40,
        // Room for '10:15 a. m.' between two ticks.
        space: large ? 170 : 100,
        values: (_u, splits) => splits.map((s) => formatTime(new Date(s * 1000))),
      },
      { ...axis, size: large ? 96 : 64, values: (_u, values) => values.map((v) => format()(v)) },
    ],
    series: [
      {},
      ...series.map((s, i) => ({
        label: s.label,
        stroke: s.colour,
        width: large ? 4 : 2.5,
        dash: SERIES_DASHES[i % SERIES_DASHES.length],
        points: { show: false },
        ...(stepped ? { paths: uPlot.paths.stepped?.({ align: 1 }) } : {}),
      })),
    ],
  };
}

/** The chart's size in a downloaded picture (CSS pixels): the picture is SHARE_MIN_WIDTH wide. */
const SHARE_CHART = { width: SHARE_MIN_WIDTH - 64, height: 560 };
const SHARE_LEGEND_LINE = 32;

/** The chart drawn off screen at a given size, once uPlot has drawn it; its canvas is the picture's. */
function drawChartPicture(
  shape: ChartShape,
  x: number[],
  marks: ChartMark[],
  format: (value: number) => string,
): Promise<{ canvas: HTMLCanvasElement; width: number; height: number }> {
  const holder = document.createElement('div');
  holder.setAttribute('aria-hidden', 'true');
  holder.style.cssText = `position:fixed;left:-${shape.width + 100}px;top:0;width:${shape.width}px`;
  document.body.append(holder);
  return new Promise((resolve) => {
    const options = chartOptions(
      shape,
      () => marks,
      () => format,
    );
    // Room on the right for the last time's label ('3:30 a. m.' centred on the plot's edge): nothing cut.
    options.padding = [null, 72, null, null];
    options.hooks = {
      ...options.hooks,
      ready: [
        (u) => {
          // A copy, so the chart can go at once.
          const copy = document.createElement('canvas');
          copy.width = u.ctx.canvas.width;
          copy.height = u.ctx.canvas.height;
          copy.getContext('2d')?.drawImage(u.ctx.canvas, 0, 0);
          const size = { canvas: copy, width: u.width, height: u.height };
          queueMicrotask(() => {
            u.destroy();
            holder.remove();
          });
          resolve(size);
        },
      ],
    };
    new uPlot(options, [x, ...shape.series.map((s) => s.values)], holder);
  });
}

const button =
  'rounded-md border border-stone-400 bg-white px-3 py-1.5 text-sm font-semibold text-stone-900 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-stone-900';

/**
 * A time chart drawn by uPlot (docs/decisions/077): one line per candidate in their colour and a dash of
 * their own, times in Caracas, the width of its box. Data changes redraw the same chart; the legend is
 * ours (plain HTML), and 'Descargar imagen' saves the drawing with its title and legend.
 */
export default function LineChart(props: LineChartProps) {
  const { label, title, x, series, yFormat, stepped = false, height, fileName, yMax, large = false } = props;
  const marks = props.marks ?? NO_MARKS;
  const marksRef = useRef(marks);
  marksRef.current = marks;
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const shape = `${series.map((s) => `${s.label}|${s.colour}`).join(',')}|${stepped}|${height}|${yMax}|${large}`;
  const format = useRef(yFormat);
  format.current = yFormat;

  // The chart is made again only when its shape changes; new figures go through setData below.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shape` sums up what the options depend on
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const u = new uPlot(
      chartOptions(
        { width: Math.max(200, el.clientWidth), height, series, stepped, yMax, large },
        () => marksRef.current,
        () => format.current,
      ),
      [x, ...series.map((s) => s.values)],
      el,
    );
    chart.current = u;
    const resize =
      typeof ResizeObserver === 'undefined'
        ? undefined
        : new ResizeObserver(() => {
            u.setSize({ width: Math.max(200, el.clientWidth), height });
          });
    resize?.observe(el);
    return () => {
      resize?.disconnect();
      u.destroy();
      chart.current = null;
    };
  }, [shape]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new mark (the close) redraws through the same setData
  useEffect(() => {
    chart.current?.setData([x, ...series.map((s) => s.values)]);
  }, [x, series, marks]);

  const download = async () => {
    // Drawn again for the picture, at its own size with the projector's type: whatever the screen,
    // the file is the same, wide enough to share and read (docs/decisions/099).
    const picture = await drawChartPicture(
      { width: SHARE_CHART.width, height: SHARE_CHART.height, series, stepped, yMax, large: true },
      x,
      marks,
      yFormat,
    );
    const legendHeight = (series.length + marks.length) * SHARE_LEGEND_LINE + 16;
    const canvas = sharePicture(
      title,
      { width: picture.width, height: picture.height + legendHeight },
      (ctx, left, top) => {
        ctx.drawImage(picture.canvas, left, top, picture.width, picture.height);
        let line = top + picture.height + 16;
        ctx.font = `20px ${CHART_FONT}`;
        ctx.textBaseline = 'top';
        series.forEach((s, i) => {
          ctx.strokeStyle = s.colour;
          ctx.lineWidth = 4;
          ctx.setLineDash(SERIES_DASHES[i % SERIES_DASHES.length] ?? []);
          ctx.beginPath();
          ctx.moveTo(left, line + 11);
          ctx.lineTo(left + 48, line + 11);
          ctx.stroke();
          ctx.setLineDash([]);
          ctx.fillStyle = INK;
          ctx.fillText(s.label, left + 60, line);
          line += SHARE_LEGEND_LINE;
        });
        for (const mark of marks) {
          ctx.strokeStyle = INK;
          ctx.lineWidth = 3;
          ctx.setLineDash(MARK_DASH.map((d) => d * 3));
          ctx.beginPath();
          ctx.moveTo(left + 24, line);
          ctx.lineTo(left + 24, line + 22);
          ctx.stroke();
          ctx.setLineDash([]);
          ctx.fillStyle = INK;
          ctx.fillText(mark.label, left + 60, line);
          line += SHARE_LEGEND_LINE;
        }
      },
    );
    downloadCanvas(`${fileName}.png`, canvas);
  };

  return (
    <div className="min-w-0">
      <div ref={box} role="img" aria-label={label} className="w-full" />
      <ul
        aria-hidden="true"
        className={`mt-2 flex flex-wrap gap-x-5 gap-y-1 ${large ? 'text-[clamp(1rem,1.3vw,1.8rem)]' : 'text-sm'}`}
      >
        {series.map((s, i) => (
          <li key={s.label} className="flex items-center gap-2 font-semibold text-stone-900">
            <svg width="36" height="10" aria-hidden="true">
              <line
                x1="0"
                y1="5"
                x2="36"
                y2="5"
                stroke={s.colour}
                strokeWidth="3"
                strokeDasharray={SERIES_DASHES[i % SERIES_DASHES.length]?.join(' ')}
              />
            </svg>
            {s.label}
          </li>
        ))}
        {marks.map((m) => (
          <li
            key={m.label}
            className="flex items-center gap-2 font-semibold text-stone-900"
            data-testid="marca-grafico"
          >
            <svg width="36" height="14" aria-hidden="true">
              <line x1="18" y1="0" x2="18" y2="14" stroke={INK} strokeWidth="2" strokeDasharray={MARK_DASH.join(' ')} />
            </svg>
            {m.label}
          </li>
        ))}
      </ul>
      {!large && (
        <button type="button" className={`${button} mt-2 print:hidden`} onClick={() => void download()}>
          Descargar imagen
        </button>
      )}
    </div>
  );
}
