import { execFileSync } from 'node:child_process';
import zlib from 'node:zlib';
import { lighthouseMedians } from './lighthouse';
import { suite as publicApi } from './public.bench';
import type { BenchSuite } from './types';

const PAGES = ['/', '/agenda', '/notas'];
const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const TARGET = { score: 95, lcpMs: 1_500, cls: 0.02, tbtMs: 200, scriptKb: 30 };

/** KB of these files once compressed with gzip (level 9, as `npm run build` reports them). */
async function gzipKb(urls: string[]): Promise<number> {
  let bytes = 0;
  for (const url of new Set(urls)) {
    const body = Buffer.from(await (await fetch(url)).arrayBuffer());
    bytes += zlib.gzipSync(body, { level: 9 }).length;
  }
  return bytes / 1024;
}

/**
 * The public pages as a phone opens them: the HTML answers under load (as a browser asks, gzip
 * accepted), then Lighthouse's mobile preset on each page, median of RUNS runs. Same data as the
 * public API suite. Needs the built web app (built here when missing or older than its sources).
 */
export const suite: BenchSuite = {
  name: 'Páginas públicas',
  async seed(db, now, dataDir) {
    execFileSync(process.execPath, ['scripts/ensure-build.mjs'], { stdio: 'inherit' });
    await publicApi.seed?.(db, now, dataDir);
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
    const rows = [];
    for (const path of PAGES) {
      const f = figures.get(`${origin}${path}`)!;
      // The JavaScript the page ran while Lighthouse loaded it (before any interaction), and what it only
      // downloaded for later (the app's code, when idle).
      const scriptKb = await gzipKb(f.scripts);
      const prefetchedKb = await gzipKb(f.prefetched);
      const ok =
        f.score >= TARGET.score &&
        f.lcpMs < TARGET.lcpMs &&
        f.cls < TARGET.cls &&
        f.tbtMs < TARGET.tbtMs &&
        scriptKb < TARGET.scriptKb;
      rows.push({
        suite: 'Páginas públicas',
        caso: `Lighthouse móvil ${path} (mediana de ${RUNS})`,
        rendimiento: f.score,
        'LCP ms': Math.round(f.lcpMs),
        CLS: Number(f.cls.toFixed(3)),
        'TBT ms': Math.round(f.tbtMs),
        'JS ejecutado KB gzip': Number(scriptKb.toFixed(1)),
        'JS descargado en reposo KB gzip': Number(prefetchedKb.toFixed(1)),
        objetivo: `≥ ${TARGET.score}, LCP < ${TARGET.lcpMs} ms, CLS < ${TARGET.cls}, TBT < ${TARGET.tbtMs} ms, JS < ${TARGET.scriptKb} KB`,
        ok: ok ? 'sí' : 'NO',
      });
    }
    return rows;
  },
};
