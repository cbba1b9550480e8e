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
