// The rehearsal's report: a table for the terminal and a Markdown file with simple inline SVG charts.
import type { RehearsalReport } from './rehearsal';

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));
const num = (n: number) => n.toLocaleString('es-VE');
const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

function table(rows: string[][]): string[] {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, c) => pad(cell, widths[c] ?? 0))
      .join('  ')
      .trimEnd(),
  );
}

function summaryLines(r: RehearsalReport): string[] {
  const c = r.counts;
  return [
    `Votos aceptados: ${num(c.votesAccepted)} por la app + ${num(c.smsApplied)} por SMS (${num(c.smsSent)} SMS enviados)`,
    `Fotos aceptadas: ${num(c.photosAccepted)}`,
    `Reenvíos tras un corte respondidos con la misma respuesta: ${num(c.replayed)}`,
    `Rechazos durante el día: ${num(c.refused)}; sin respuesta al cierre: ${num(c.pendingAtClose)}`,
    c.stored
      ? `Guardados en el simulacro: ${num(c.stored.votes)} votos y ${num(c.stored.photos)} fotos`
      : 'Guardados: —',
    c.erased
      ? `Borrados al terminar: ${num(c.erased.votes)} votos, ${num(c.erased.photos)} fotos, ${num(c.erased.files)} archivos, ${num(c.erased.accounts)} cuentas`
      : 'Borrados al terminar: —',
    `En los teléfonos al cierre: ${num(c.held)}; llegadas tardías: ${num(c.late.sent)} enviadas, ${num(c.late.accepted)} aceptadas`,
    `Proyectores: ${num(r.projector.connections)} conexiones, ${num(r.projector.events)} eventos, ${num(r.projector.reconnects)} reconexiones; voto → proyector p50 ${seconds(r.projector.p50)}, p99 ${seconds(r.projector.p99)} (${num(r.projector.samples)} muestras)`,
    r.metrics
      ? `Servidor (/metrics, ${r.metrics.samples} lecturas): memoria máx. ${r.metrics.maxRssMb ?? '—'} MB, heap máx. ${r.metrics.maxHeapMb ?? '—'} MB, retraso del bucle de eventos p99 máx. ${r.metrics.maxLoopP99Ms ?? '—'} ms`
      : 'Servidor: sin /metrics (pasa METRICS_TOKEN para leer memoria y bucle de eventos)',
    `Solicitudes: ${num(c.requests)}`,
  ];
}

/** What the terminal shows at the end. */
export function terminalReport(r: RehearsalReport): string[] {
  if (r.refused) return [`El ensayo no se hizo: ${r.refused}`];
  const lines: string[] = [
    '',
    `Ensayo general contra ${r.url}${r.interrupted ? ' (interrumpido con Ctrl+C)' : ''}`,
    '',
  ];
  lines.push(...summaryLines(r), '');
  lines.push(
    ...table([
      ['Solicitud', 'n', 'p50 ms', 'p99 ms', 'máx. ms', 'errores'],
      ...r.kinds.map((k) => [k.kind, String(k.count), String(k.p50), String(k.p99), String(k.max), String(k.errors)]),
    ]),
    '',
  );
  if (r.perMinute.length > 0) {
    const peak = Math.max(1, ...r.perMinute.map((m) => m.votes + m.photos + m.sms));
    lines.push('Por minuto (█ votos, ▒ fotos, ░ SMS)');
    for (const m of r.perMinute) {
      const scale = (n: number) => Math.round((n / peak) * 40);
      lines.push(
        `${String(m.minute).padStart(3)}  ${'█'.repeat(scale(m.votes))}${'▒'.repeat(scale(m.photos))}${'░'.repeat(scale(m.sms))} ${m.votes}/${m.photos}/${m.sms}`,
      );
    }
    lines.push('');
  }
  if (r.errors.length > 0) {
    lines.push('Errores y rechazos por tipo');
    for (const e of r.errors.slice(0, 15)) lines.push(`  ${String(e.count).padStart(6)} × ${e.kind}`);
    lines.push('');
  }
  lines.push('Veredictos');
  for (const v of r.verdicts) lines.push(`  ${v.ok ? 'CUMPLE   ' : 'NO CUMPLE'}  ${v.name}: ${v.detail}`);
  for (const n of r.notes) lines.push(`  Nota: ${n}`);
  return lines;
}

function barChart(r: RehearsalReport): string {
  const rows = r.perMinute;
  if (rows.length === 0) return '';
  const w = 640;
  const h = 180;
  const peak = Math.max(1, ...rows.map((m) => m.votes + m.photos + m.sms));
  const bw = Math.max(2, Math.floor((w - 40) / rows.length) - 2);
  const bars = rows
    .map((m, i) => {
      const x = 30 + i * (bw + 2);
      let y = h - 20;
      const parts: string[] = [];
      for (const [n, colour, label] of [
        [m.votes, '#1d4ed8', 'votos'],
        [m.photos, '#f59e0b', 'fotos'],
        [m.sms, '#16a34a', 'SMS'],
      ] as const) {
        const bh = Math.round((n / peak) * (h - 40));
        y -= bh;
        if (bh > 0)
          parts.push(
            `<rect x="${x}" y="${y}" width="${bw}" height="${bh}" fill="${colour}"><title>minuto ${m.minute}: ${n} ${label}</title></rect>`,
          );
      }
      return parts.join('');
    })
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" role="img" aria-label="Votos, fotos y SMS por minuto">` +
    `<text x="30" y="14" font-size="12" font-family="sans-serif">Por minuto: votos (azul), fotos (ámbar), SMS (verde); máximo ${peak}</text>` +
    `<line x1="28" y1="${h - 20}" x2="${w - 10}" y2="${h - 20}" stroke="#555"/>${bars}</svg>`
  );
}

function latencyChart(r: RehearsalReport): string {
  const kinds = r.kinds.filter((k) => k.count > 0);
  if (kinds.length === 0) return '';
  const w = 640;
  const row = 18;
  const h = 24 + kinds.length * row;
  const peak = Math.max(1, ...kinds.map((k) => k.p99));
  const bars = kinds
    .map((k, i) => {
      const y = 20 + i * row;
      const p50 = Math.round((k.p50 / peak) * 380);
      const p99 = Math.round((k.p99 / peak) * 380);
      return (
        `<text x="0" y="${y + 12}" font-size="11" font-family="sans-serif">${k.kind}</text>` +
        `<rect x="220" y="${y + 2}" width="${Math.max(1, p99)}" height="12" fill="#c7d2fe"/>` +
        `<rect x="220" y="${y + 2}" width="${Math.max(1, p50)}" height="12" fill="#1d4ed8"/>` +
        `<text x="${226 + p99}" y="${y + 12}" font-size="11" font-family="sans-serif">${k.p50} / ${k.p99} ms</text>`
      );
    })
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" role="img" aria-label="p50 y p99 por tipo de solicitud"><text x="0" y="12" font-size="12" font-family="sans-serif">p50 (oscuro) y p99 (claro) por tipo de solicitud</text>${bars}</svg>`;
}

/** The Markdown file. */
export function markdownReport(r: RehearsalReport): string {
  const out: string[] = [`# Ensayo general — ${r.startedAt.slice(0, 16).replace('T', ' ')} UTC`, ''];
  if (r.refused) return [...out, `El ensayo no se hizo: ${r.refused}`, ''].join('\n');
  const o = r.options;
  out.push(
    `Servidor: ${r.url}. ${o.readOnly ? 'Solo lectura. ' : ''}${o.phones} teléfonos, ${o.minutes} min, ${o.projectors} proyectores, ${o.sms} SMS. ` +
      `Enlace de los teléfonos: ${o.link.upKbps} kbit/s de subida, ${o.link.downKbps} kbit/s de bajada, ${o.link.rttMs} ms de ida y vuelta, ` +
      `${o.link.cutEveryMs ? `un corte cada ${o.link.cutEveryMs / 1000} s` : o.link.cutEveryRequests ? `un corte cada ${o.link.cutEveryRequests} solicitudes` : 'sin cortes'}.` +
      (r.interrupted ? ' **Interrumpido con Ctrl+C**: el simulacro se borró igual.' : ''),
    '',
    '## Veredictos',
    '',
    '| Invariante | Veredicto | Detalle |',
    '|---|---|---|',
    ...r.verdicts.map((v) => `| ${v.name} | ${v.ok ? 'cumple' : '**NO CUMPLE**'} | ${v.detail} |`),
    '',
    ...r.notes.map((n) => `- Nota: ${n}`),
    '',
    '## Cifras',
    '',
    ...summaryLines(r).map((l) => `- ${l}`),
    '',
    barChart(r),
    '',
    '| Minuto | Votos | Fotos | SMS |',
    '|---:|---:|---:|---:|',
    ...r.perMinute.map((m) => `| ${m.minute} | ${m.votes} | ${m.photos} | ${m.sms} |`),
    '',
    '## Tiempos por tipo de solicitud',
    '',
    'Medidos en el cliente sin el retraso del enlace simulado (lo que tarda el servidor y la red real).',
    '',
    latencyChart(r),
    '',
    '| Solicitud | n | p50 ms | p99 ms | máx. ms | errores |',
    '|---|---:|---:|---:|---:|---:|',
    ...r.kinds.map((k) => `| ${k.kind} | ${k.count} | ${k.p50} | ${k.p99} | ${k.max} | ${k.errors} |`),
    '',
    '## Errores y rechazos por tipo',
    '',
    ...(r.errors.length === 0
      ? ['Ninguno.']
      : ['| Tipo | Cuántos |', '|---|---:|', ...r.errors.map((e) => `| ${e.kind} | ${e.count} |`)]),
    '',
    '## Fases',
    '',
    '| Fase | Duración |',
    '|---|---:|',
    ...r.phases.map((p) => `| ${p.name} | ${seconds(p.ms)} |`),
    '',
  );
  return out.join('\n');
}
