import type { Kysely } from 'kysely';
import type { Database } from '#server/platform/db/schema';
import { formatCount } from '#shared/platform/format';
import { checkTotals } from './results.service';

const COUNTER_NAMES: Record<string, string> = {
  votados: 'trámites votados',
  'pendientes:total': 'trámites pendientes',
  'pendientes:votados': 'pendientes votados',
  'pendientes:validados': 'pendientes validados',
};

/**
 * `npm run cli -- results:check`: recounts every result counter from the records and their ballots
 * and prints any difference. Exit code 0 when all agree, 1 otherwise (for scripts and cron).
 */
export async function runResultsCheck(
  db: Kysely<Database>,
  io: { out: (line: string) => void; err: (line: string) => void },
): Promise<number> {
  const { differences, ballots, votes } = await checkTotals(db);
  const summary = Object.entries(votes)
    .map(([code, n]) => `${code} ${formatCount(n)}`)
    .join(', ');
  if (differences.length === 0) {
    io.out(`Totales correctos: ${formatCount(ballots)} trámites votados; votos ${summary}.`);
    return 0;
  }
  io.err(
    differences.length === 1
      ? '1 contador no coincide con el recuento de los trámites:'
      : `${differences.length} contadores no coinciden con el recuento de los trámites:`,
  );
  for (const d of differences) {
    const what = COUNTER_NAMES[d.counter] ?? `votos ${d.counter}`;
    io.err(`  ${d.department}\t${what}\tguardado ${formatCount(d.stored)}\trecontado ${formatCount(d.recounted)}`);
  }
  io.err(`Recuento: ${formatCount(ballots)} trámites votados; votos ${summary}.`);
  return 1;
}
