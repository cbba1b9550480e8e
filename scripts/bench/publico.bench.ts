import { execFileSync } from 'node:child_process';
import { lighthouseMedians } from './lighthouse';
import { suite as publicApi } from './public.bench';
import type { BenchSuite } from './types';

const PAGES = ['/', '/agenda', '/notas'];
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const TARGET = { score: 95, lcpMs: 1_500, cls: 0.02 };

/**
 * The public pages as a phone opens them: the HTML answers under load (as a browser asks, gzip
 * accepted), then Lighthouse's mobile preset on each page, median of RUNS runs. Same data as the
 * public API suite. Needs the built web app (built here when missing or older than its sources).
 */
export const suite: BenchSuite = {
  name: 'Páginas públicas',
  async seed(db, now) {
    execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
    await publicApi.seed?.(db, now);
  },
  cases: PAGES.map((path) => ({
    name: `GET ${path} (HTML)`,
    connections: 50,
    targetP99: 20,
    requests: () => [{ method: 'GET', path, headers: { accept: 'text/html', 'accept-encoding': 'gzip' } }],
  })),
  async extra(origin) {
    const figures = await lighthouseMedians(
      PAGES.map((p) => `${origin}${p}`),
      RUNS,
    );
    return PAGES.map((path) => {
      const f = figures.get(`${origin}${path}`)!;
      const ok = f.score >= TARGET.score && f.lcpMs < TARGET.lcpMs && f.cls < TARGET.cls;
      return {
        suite: 'Páginas públicas',
        caso: `Lighthouse móvil ${path} (mediana de ${RUNS})`,
        rendimiento: f.score,
        'LCP ms': Math.round(f.lcpMs),
        CLS: Number(f.cls.toFixed(3)),
        'TBT ms': Math.round(f.tbtMs),
        objetivo: `≥ ${TARGET.score}, LCP < ${TARGET.lcpMs} ms, CLS < ${TARGET.cls}`,
        ok: ok ? 'sí' : 'NO',
      };
    });
  },
};
