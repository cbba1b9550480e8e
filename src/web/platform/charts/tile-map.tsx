import { type CSSProperties, useState } from 'react';
import { CHART_FONT, downloadCanvas, downloadCsv, sharePicture } from './download';
import { type ColourStep, INK } from './tile-colours';
import { MARACAIBO_BLOCK, placeTiles, ZULIA_COLUMNS, ZULIA_LAKE, ZULIA_ROWS } from './zulia-tiles';

/** One department on the map. */
export interface MapTile {
  slug: string;
  title: string;
  colour: ColourStep;
  /** The short figure written on the square: '45 %', 's/r', '12'. */
  value: string;
  /** Its figures in a sentence: shown on hover or focus, and what a screen reader hears. */
  summary: string;
  /** Something to act on (validators stuck): a thick border and this text. */
  alert?: string | undefined;
}

export interface TileMapProps {
  /** Unique on the page: the ids of the title and the table hang on it. */
  id: string;
  title: string;
  tiles: readonly MapTile[];
  legend: readonly ColourStep[];
  /** A square's click: its breakdown (without it, as on the projector, the click shows its figures). */
  onOpen?: ((slug: string) => void) | undefined;
  /** The figures of every square, for the table under the map and the CSV. */
  table: { columns: readonly string[]; rows: readonly { slug: string; title: string; cells: readonly string[] }[] };
  /** File names of the downloads, without extension. */
  fileName: string;
  /** The projector's map is bounded by the screen's height. */
  size?: 'page' | 'projector';
  /** On the projector, the height the squares may take (a CSS length): 60vh unless the page says. */
  projectorHeight?: string | undefined;
}

/**
 * The projector's map as wide as `height` (a CSS length) allows: its squares there are wider than tall
 * (3:2), so that a figure of 24 px ('100 %') fits in each even at 1280×720.
 */
export const projectorMapWidth = (height: string) => `calc(${height} * ${ZULIA_COLUMNS} / ${ZULIA_ROWS} * 3 / 2)`;

const button =
  'rounded-md border border-stone-400 bg-white px-3 py-1.5 text-sm font-semibold text-stone-900 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-stone-900';

/**
 * Zulia as squares (zulia-tiles.ts), each in its step's colour with its short name and figure written on
 * it; hovering or focusing one shows its figures, clicking opens its breakdown. The legend says what each
 * colour means, the table under it gives every figure, and both download.
 */
export function TileMap({
  id,
  title,
  tiles,
  legend,
  onOpen,
  table,
  fileName,
  size = 'page',
  projectorHeight = '60vh',
}: TileMapProps) {
  const [active, setActive] = useState<string | null>(null);
  const [tableOpen, setTableOpen] = useState(false);
  const { placed, others } = placeTiles(tiles);
  const shown = tiles.find((t) => t.slug === active);
  const projector = size === 'projector';

  const tileButton = (tile: MapTile & { short: string }, style?: CSSProperties) => (
    <button
      key={tile.slug}
      type="button"
      data-testid={`cuadro-${tile.slug}`}
      data-fill={tile.colour.fill}
      aria-label={tile.summary}
      onMouseEnter={() => setActive(tile.slug)}
      onFocus={() => setActive(tile.slug)}
      onClick={() => (onOpen ? onOpen(tile.slug) : setActive(tile.slug))}
      className={`@container relative flex ${projector ? 'aspect-[3/2]' : 'aspect-square'} min-w-0 flex-col items-center justify-center rounded-[8%] leading-none focus-visible:z-20 focus-visible:outline-4 focus-visible:outline-offset-1 focus-visible:outline-stone-900 ${tile.alert ? 'border-[max(3px,8cqw)] border-double border-stone-900' : 'border border-stone-400'}`}
      style={{ backgroundColor: tile.colour.fill, color: tile.colour.text, ...style }}
    >
      <span
        aria-hidden="true"
        className={`${projector ? 'text-[clamp(0.75rem,19cqw,2.25rem)]' : 'text-[clamp(0.5rem,26cqw,2rem)]'} font-black`}
      >
        {tile.short}
      </span>
      {/* On a projector's screen (1024 px wide and more) the figure is read from the back of a room: never
          under 24 px. On a phone it follows the square. */}
      <span
        aria-hidden="true"
        data-testid="cifra-cuadro"
        className={`${projector ? 'mt-[3cqw] text-[clamp(0.5rem,29cqw,3rem)] font-bold tracking-tight whitespace-nowrap lg:text-[max(24px,29cqw)]' : 'mt-[6cqw] text-[clamp(0.5rem,22cqw,1.75rem)] font-semibold'} tabular-nums`}
      >
        {tile.value}
      </span>
      {tile.alert && (
        <span
          aria-hidden="true"
          className="absolute -top-[0.6em] -right-[0.4em] rounded-full bg-stone-900 px-[0.35em] text-[clamp(0.55rem,20cqw,1.5rem)] font-bold text-white"
        >
          !
        </span>
      )}
    </button>
  );

  return (
    <section aria-labelledby={`${id}-titulo`} className="min-w-0">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2
          id={`${id}-titulo`}
          className={projector ? 'text-[clamp(1.2rem,1.8vw,2.5rem)] font-bold' : 'text-xl font-bold'}
        >
          {title}
        </h2>
        {!projector && (
          <div className="flex flex-wrap gap-2 print:hidden">
            <button
              type="button"
              className={button}
              onClick={() => downloadCanvas(`${fileName}.png`, drawMap(title, tiles, legend))}
            >
              Descargar imagen
            </button>
            <button
              type="button"
              className={button}
              onClick={() =>
                downloadCsv(`${fileName}.csv`, [table.columns, ...table.rows.map((r) => [r.title, ...r.cells])])
              }
            >
              Descargar CSV
            </button>
          </div>
        )}
      </div>

      <div
        className={`relative mx-auto mt-3 grid ${projector ? 'gap-[0.3vw]' : 'gap-[3px]'}`}
        style={{
          gridTemplateColumns: `repeat(${ZULIA_COLUMNS}, minmax(0, 1fr))`,
          maxWidth: projector ? `min(100%, ${projectorMapWidth(projectorHeight)})` : '40rem',
        }}
      >
        <div
          aria-hidden="true"
          className="flex items-center justify-center rounded-lg bg-sky-100 text-center text-[clamp(0.5rem,1.6vw,1rem)] font-semibold text-sky-950 [writing-mode:vertical-rl]"
          style={{ gridColumn: ZULIA_LAKE.col + 1, gridRow: `${ZULIA_LAKE.fromRow + 1} / ${ZULIA_LAKE.toRow + 2}` }}
        >
          Lago de Maracaibo
        </div>
        <div
          aria-hidden="true"
          className="pointer-events-none -m-[2px] rounded-lg border-2 border-dashed border-stone-700"
          style={{
            gridColumn: `${MARACAIBO_BLOCK.fromCol + 1} / ${MARACAIBO_BLOCK.toCol + 2}`,
            gridRow: `${MARACAIBO_BLOCK.fromRow + 1} / ${MARACAIBO_BLOCK.toRow + 2}`,
          }}
        />
        {/* Named in the empty squares above its parishes. */}
        <div
          aria-hidden="true"
          className="flex items-end justify-center pb-[2%] text-[clamp(0.55rem,2.2vw,1.05rem)] font-bold text-stone-900"
          style={{
            gridColumn: `${MARACAIBO_BLOCK.fromCol + 2} / ${MARACAIBO_BLOCK.toCol + 1}`,
            gridRow: MARACAIBO_BLOCK.fromRow,
          }}
        >
          Maracaibo
        </div>
        {placed.map((tile) => tileButton(tile, { gridColumn: tile.col + 1, gridRow: tile.row + 1 }))}
      </div>
      {others.length > 0 && (
        <div className="mx-auto mt-2 grid max-w-[40rem] grid-cols-8 gap-[3px]">{others.map((t) => tileButton(t))}</div>
      )}

      {/* Nobody touches a projector: no hint there, and no line kept for one. */}
      {!projector && (
        <p
          className="mt-2 min-h-[1.5em] text-center text-sm font-semibold text-stone-900"
          data-testid={`${id}-detalle`}
        >
          {shown ? shown.summary : 'Pasa el cursor o toca un cuadro para ver sus cifras.'}
        </p>
      )}

      <ul
        id={`${id}-leyenda`}
        aria-label="Leyenda"
        className={`mt-2 flex flex-wrap justify-center gap-x-4 gap-y-1 ${projector ? 'text-[clamp(1rem,1.2vw,1.6rem)]' : 'text-sm'}`}
      >
        {legend.map((step) => (
          <li key={step.label} className="flex items-center gap-1.5 text-stone-900">
            <span
              aria-hidden="true"
              className="inline-block h-4 w-4 rounded-sm border border-stone-500"
              style={{ backgroundColor: step.fill }}
            />
            {step.label}
          </li>
        ))}
      </ul>

      {!projector && (
        <details
          className="mt-3 rounded-lg border border-stone-200 bg-white"
          onToggle={(event) => setTableOpen(event.currentTarget.open)}
        >
          <summary className="cursor-pointer px-3 py-2 font-semibold text-stone-900">Tabla del mapa</summary>
          {/* Drawn once opened: a closed table is out of reach anyway, and costs nothing while the map updates. */}
          {tableOpen && (
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a box that scrolls must be reachable by keyboard (axe: scrollable-region-focusable)
            <div className="max-h-96 overflow-auto" tabIndex={0}>
              <table className="w-full border-collapse text-sm" data-testid={`${id}-tabla`}>
                <caption className="sr-only">{title}</caption>
                <thead className="sticky top-0 bg-stone-100 text-left">
                  <tr>
                    {table.columns.map((c, i) => (
                      <th key={c} scope="col" className={`px-3 py-2 ${i > 0 ? 'text-right' : ''}`}>
                        {c}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {table.rows.map((r) => (
                    <tr key={r.slug} className="border-t border-stone-200" data-slug={r.slug}>
                      <th scope="row" className="px-3 py-1.5 text-left font-medium">
                        {r.title}
                      </th>
                      {r.cells.map((cell, i) => (
                        // biome-ignore lint/suspicious/noArrayIndexKey: the columns are fixed
                        <td key={i} className="px-3 py-1.5 text-right tabular-nums">
                          {cell}
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </details>
      )}
    </section>
  );
}

/**
 * The map as a picture to share (sharePicture: its title, the campaign, the date and time): the squares,
 * the lake, Maracaibo's outline and the legend.
 */
function drawMap(title: string, tiles: readonly MapTile[], legend: readonly ColourStep[]): HTMLCanvasElement {
  const cell = 100;
  const gap = 5;
  const { placed, others } = placeTiles(tiles);
  const otherRows = Math.ceil(others.length / ZULIA_COLUMNS);
  const gridWidth = ZULIA_COLUMNS * (cell + gap) - gap;
  const gridHeight = (ZULIA_ROWS + otherRows) * (cell + gap) - gap;
  const legendLine = 32;
  const body = { width: gridWidth, height: gridHeight + 24 + legend.length * legendLine };
  return sharePicture(title, body, (ctx, left, top) => {
    const x = (col: number) => left + col * (cell + gap);
    const y = (row: number) => top + row * (cell + gap);
    ctx.fillStyle = '#e0f2fe';
    ctx.fillRect(
      x(ZULIA_LAKE.col),
      y(ZULIA_LAKE.fromRow),
      cell,
      (ZULIA_LAKE.toRow - ZULIA_LAKE.fromRow + 1) * (cell + gap) - gap,
    );
    ctx.setLineDash([8, 5]);
    ctx.strokeStyle = '#44403c';
    ctx.lineWidth = 3;
    ctx.strokeRect(
      x(MARACAIBO_BLOCK.fromCol) - 3,
      y(MARACAIBO_BLOCK.fromRow) - 3,
      (MARACAIBO_BLOCK.toCol - MARACAIBO_BLOCK.fromCol + 1) * (cell + gap) - gap + 6,
      (MARACAIBO_BLOCK.toRow - MARACAIBO_BLOCK.fromRow + 1) * (cell + gap) - gap + 6,
    );
    ctx.setLineDash([]);
    ctx.textBaseline = 'top';

    const drawTile = (tile: MapTile & { short: string }, tileLeft: number, tileTop: number) => {
      ctx.fillStyle = tile.colour.fill;
      ctx.fillRect(tileLeft, tileTop, cell, cell);
      ctx.strokeStyle = INK;
      ctx.lineWidth = tile.alert ? 6 : 1;
      ctx.strokeRect(tileLeft, tileTop, cell, cell);
      ctx.fillStyle = tile.colour.text;
      ctx.textAlign = 'center';
      ctx.font = `900 26px ${CHART_FONT}`;
      ctx.fillText(tile.short, tileLeft + cell / 2, tileTop + 22, cell - 8);
      ctx.font = `600 21px ${CHART_FONT}`;
      ctx.fillText(tile.value, tileLeft + cell / 2, tileTop + 58, cell - 8);
      ctx.textAlign = 'start';
    };
    for (const tile of placed) drawTile(tile, x(tile.col), y(tile.row));
    others.forEach((tile, i) => {
      drawTile(tile, x(i % ZULIA_COLUMNS), y(ZULIA_ROWS + Math.floor(i / ZULIA_COLUMNS)));
    });

    let legendTop = top + gridHeight + 24;
    ctx.font = `20px ${CHART_FONT}`;
    for (const step of legend) {
      ctx.fillStyle = step.fill;
      ctx.fillRect(left, legendTop, 24, 24);
      ctx.strokeStyle = INK;
      ctx.lineWidth = 1;
      ctx.strokeRect(left, legendTop, 24, 24);
      ctx.fillStyle = INK;
      ctx.fillText(step.label, left + 34, legendTop + 2);
      legendTop += legendLine;
    }
  });
}
