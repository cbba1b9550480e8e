import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
const url = process.argv[2] ?? 'http://127.0.0.1:5991/';
const chrome = await chromeLauncher.launch({ chromePath: '/usr/bin/chromium', chromeFlags: ['--headless=new','--no-sandbox','--disable-gpu','--disable-dev-shm-usage','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run','--disable-quic'] });
for (let i = 0; i < Number(process.argv[3] ?? 5); i++) {
  const r = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
  const a = r!.lhr.audits;
  const m = (a.metrics?.details as any)?.items?.[0] ?? {};
  const el = (a['largest-contentful-paint-element']?.details as any)?.items?.[0]?.items?.[0]?.node?.snippet;
  const reqs = ((a['network-requests']?.details as any)?.items ?? []).map((q: any) => `${q.url.replace(/^https?:\/\/[^/]+/, '')} ${Math.round(q.networkRequestTime)}-${Math.round(q.networkEndTime)}`);
  console.log(`LCP ${Math.round(a['largest-contentful-paint'].numericValue!)} score ${r!.lhr.categories.performance.score} obsFCP ${Math.round(m.observedFirstContentfulPaint)} obsLCP ${Math.round(m.observedLargestContentfulPaint)} obsLoad ${Math.round(m.observedLoad)} el=${el?.slice(0,80)}`);
  console.log('   ', reqs.join(' | '));
}
chrome.kill();
