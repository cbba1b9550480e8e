import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

// The same browser and flags as the end-to-end tests (playwright.config.ts): Debian's Chromium.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export interface LighthouseFigures {
  score: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  /** The scripts the page ran (Lighthouse's network requests of type Script), by address. */
  scripts: string[];
  /** Other JavaScript it downloaded without running it (prefetched for later). */
  prefetched: string[];
}

interface NetworkRequest {
  url: string;
  resourceType?: string;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** One Lighthouse run; a run that lost its trace (NO_NAVSTART, seen on a busy machine) is tried again. */
async function runOnce(url: string, port: number, tries = 3): Promise<LighthouseFigures> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  if (!result) throw new Error(`Lighthouse no devolvió resultados para ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) {
    if (tries > 1) return runOnce(url, port, tries - 1);
    throw new Error(`Lighthouse falló en ${url}: ${lhr.runtimeError.message}`);
  }
  const requests = ((lhr.audits['network-requests']?.details as { items?: NetworkRequest[] } | undefined)?.items ??
    []) as NetworkRequest[];
  const javascript = requests.filter((r) => /\.m?js(\?|$)/.test(r.url));
  return {
    scripts: javascript.filter((r) => r.resourceType === 'Script').map((r) => r.url),
    prefetched: javascript.filter((r) => r.resourceType !== 'Script').map((r) => r.url),
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    tbtMs: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
  };
}

/**
 * Lighthouse's default configuration (the mobile preset: a mid-range phone on a slow 4G link, with
 * simulated throttling, which depends less on how busy this machine is than real throttling), `runs`
 * times per URL after one warm-up run of the browser; the median of each figure.
 */
export async function lighthouseMedians(urls: string[], runs: number): Promise<Map<string, LighthouseFigures>> {
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: FLAGS });
  const out = new Map<string, LighthouseFigures>();
  try {
    if (urls[0]) await runOnce(urls[0], chrome.port);
    for (const url of urls) {
      const each: LighthouseFigures[] = [];
      for (let i = 0; i < runs; i++) each.push(await runOnce(url, chrome.port));
      for (const [i, r] of each.entries()) {
        console.log(
          `Lighthouse ${url} #${i + 1}: ${r.score}, LCP ${Math.round(r.lcpMs)} ms, TBT ${Math.round(r.tbtMs)} ms`,
        );
      }
      out.set(url, {
        // The same page each run: the scripts of the last one.
        scripts: each.at(-1)?.scripts ?? [],
        prefetched: each.at(-1)?.prefetched ?? [],
        score: median(each.map((r) => r.score)),
        lcpMs: median(each.map((r) => r.lcpMs)),
        cls: median(each.map((r) => r.cls)),
        tbtMs: median(each.map((r) => r.tbtMs)),
      });
    }
  } finally {
    chrome.kill();
  }
  return out;
}
