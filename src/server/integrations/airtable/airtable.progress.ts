import { formatCount } from '#shared/platform/format';
import type { ImportProgress } from './airtable.import-report';

export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const BAR_WIDTH = 24;
/** Redraws at most this often (a 20,000-row step would otherwise write 20,000 lines). */
const REDRAW_MS = 100;

/**
 * A progress bar on the operator's terminal (stderr): `Votos [██████░░░░] 45 % 1.234/2.742`, redrawn in
 * place; a count when the total is unknown (reading pages). When stderr is not a terminal (a log file,
 * cron), one line per finished step instead.
 */
export function createTerminalProgress(stream: ProgressStream, clock: () => number = Date.now): ImportProgress {
  let label = '';
  let total: number | undefined;
  let done = 0;
  let drawnAt = 0;
  let active = false;

  const line = () => {
    if (total === undefined) return `${label}: ${formatCount(done)}`;
    const share = total === 0 ? 1 : Math.min(1, done / total);
    const filled = Math.round(share * BAR_WIDTH);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
    return `${label} [${bar}] ${String(Math.floor(share * 100)).padStart(3)} % ${formatCount(done)}/${formatCount(total)}`;
  };
  const draw = (force: boolean) => {
    if (!stream.isTTY) return;
    const at = clock();
    if (!force && at - drawnAt < REDRAW_MS) return;
    drawnAt = at;
    // \r and erase-line: the bar replaces itself instead of scrolling.
    stream.write(`\r\u001b[2K${line()}`);
  };

  return {
    phase(name, steps) {
      label = name;
      total = steps;
      done = 0;
      active = true;
      drawnAt = 0;
      draw(true);
    },
    advance(n = 1) {
      done += n;
      draw(false);
    },
    end() {
      if (!active) return;
      active = false;
      if (stream.isTTY) {
        draw(true);
        stream.write('\n');
      } else stream.write(`${line()}\n`);
    },
  };
}
