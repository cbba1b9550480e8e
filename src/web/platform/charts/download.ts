import { formatLongDate, formatTime } from '#shared/platform/format';
import { currentSiteName } from '#web/platform/lib/use-document-title';
import { INK } from './tile-colours';

/**
 * 'Descargar imagen' and the figures as CSV, made in the browser from what the chart shows: no request,
 * no personal data (counts per department or per quarter of an hour), so nothing to audit.
 */

/** A CSV Excel opens as the server's downloads do: UTF-8 with BOM, separated by semicolons. */
export function toCsv(rows: readonly (readonly (string | number)[])[]): string {
  const cell = (value: string | number) => {
    const text = String(value);
    return /[";\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return `\uFEFF${rows.map((row) => row.map(cell).join(';')).join('\r\n')}\r\n`;
}

function save(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click has run.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export function downloadCsv(fileName: string, rows: readonly (readonly (string | number)[])[]): void {
  save(new Blob([toCsv(rows)], { type: 'text/csv;charset=utf-8' }), fileName);
}

export function downloadCanvas(fileName: string, canvas: HTMLCanvasElement): void {
  canvas.toBlob((blob) => {
    if (blob) save(blob, fileName);
  }, 'image/png');
}

/** A white canvas of this size in CSS pixels, drawn sharp on this screen; its context already scaled. */
export function paperCanvas(
  width: number,
  height: number,
): { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D } {
  const scale = Math.max(1, window.devicePixelRatio || 1);
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(width * scale);
  canvas.height = Math.round(height * scale);
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
  ctx.scale(scale, scale);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  return { canvas, ctx };
}

export const CHART_FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

/** A downloaded picture is at least this wide (CSS pixels; more on a sharp screen): fit to share. */
export const SHARE_MIN_WIDTH = 1200;
const SHARE_MARGIN = 32;
const TITLE_FONT = `bold 34px ${CHART_FONT}`;
const TITLE_LINE = 42;
const CAPTION_FONT = `20px ${CHART_FONT}`;
const CAPTION_LINE = 28;

/**
 * What a shared picture says under its title: the campaign, and the date and time it was made, in
 * Caracas ('Comando Zulia · 28 de noviembre de 2026, 9:05 p. m. (hora de Caracas)').
 */
export function shareCaption(now: Date, campaign: string = currentSiteName()): string {
  return `${campaign} · ${formatLongDate(now)}, ${formatTime(now)} (hora de Caracas)`;
}

/** `text` in lines no wider than `width` with the context's font, broken between words (never cut). */
export function wrapText(ctx: CanvasRenderingContext2D, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (line && ctx.measureText(next).width > width) {
      lines.push(line);
      line = word;
    } else {
      line = next;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * A picture to share (docs/decisions/099): on white, at least SHARE_MIN_WIDTH wide, the title (wrapped,
 * never cut), the campaign with the date and time in Caracas, then the body drawn by `draw` at (left,
 * top) in a box of `body` size, centred.
 */
export function sharePicture(
  title: string,
  body: { width: number; height: number },
  draw: (ctx: CanvasRenderingContext2D, left: number, top: number) => void,
  now: Date = new Date(),
): HTMLCanvasElement {
  const width = Math.max(SHARE_MIN_WIDTH, Math.ceil(body.width) + SHARE_MARGIN * 2);
  const textWidth = width - SHARE_MARGIN * 2;
  // Measured on a scratch canvas first: the title's lines decide the height.
  const scratch = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
  scratch.font = TITLE_FONT;
  const titleLines = wrapText(scratch, title, textWidth);
  scratch.font = CAPTION_FONT;
  const captionLines = wrapText(scratch, shareCaption(now), textWidth);
  const bodyTop = SHARE_MARGIN + titleLines.length * TITLE_LINE + captionLines.length * CAPTION_LINE + 24;
  const height = bodyTop + Math.ceil(body.height) + SHARE_MARGIN;
  const { canvas, ctx } = paperCanvas(width, height);
  ctx.fillStyle = INK;
  ctx.textBaseline = 'top';
  ctx.textAlign = 'left';
  ctx.font = TITLE_FONT;
  let top = SHARE_MARGIN;
  for (const line of titleLines) {
    ctx.fillText(line, SHARE_MARGIN, top);
    top += TITLE_LINE;
  }
  ctx.font = CAPTION_FONT;
  ctx.fillStyle = '#44403c';
  for (const line of captionLines) {
    ctx.fillText(line, SHARE_MARGIN, top);
    top += CAPTION_LINE;
  }
  ctx.save();
  draw(ctx, Math.round((width - body.width) / 2), bodyTop);
  ctx.restore();
  return canvas;
}
