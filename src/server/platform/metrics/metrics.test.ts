import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, uploadPhoto } from '#server/testing/photos';
import { addRecords, SLUG_A, signInPeople } from '#server/testing/records';
import { createTestApp, type TestApp, testDialect } from '#server/testing/test-app';

const MB = 1024 * 1024;
const TOKEN = 'metricas-de-prueba-0123456789abcdef0123456789';

let t: TestApp;
afterEach(async () => t?.close());

async function scrape() {
  const res = await t.request({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  // A real Prometheus text-format parser: a malformed exposition throws here.
  const families = parsePrometheusTextFormat(res.body);
  return {
    names: families.map((f) => f.name),
    family: (name: string) => families.find((f) => f.name === name),
    /** The sample with these labels (all of them, exactly); 0 when Prometheus has not seen it yet. */
    value(name: string, labels: Record<string, string> = {}): number {
      const sample = families
        .find((f) => f.name === name)
        ?.metrics.find((m) => JSON.stringify(m.labels ?? {}) === JSON.stringify(labels));
      return Number(sample?.value ?? sample?.count ?? 0);
    },
  };
}

const vote = (id: number, cookie: string, candidates: string[] = ['FA']) =>
  t.request({
    method: 'POST',
    url: `/api/validation/${SLUG_A}/records/${id}/vote`,
    headers: { cookie },
    payload: { candidates },
  });

describe('/metrics', () => {
  it('does not exist without METRICS_TOKEN, and asks for the token when it is set', async () => {
    t = await createTestApp();
    expect((await t.request({ url: '/metrics' })).statusCode).toBe(404);
    await t.close();

    t = await createTestApp({ metricsToken: TOKEN });
    const none = await t.request({ url: '/metrics' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(none.json().message).toMatch(/METRICS_TOKEN/);
    const wrong = await t.request({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('comando_');
  });

  it('answers only at /metrics: no other spelling gives the metrics, even with the token', async () => {
    t = await createTestApp({ metricsToken: TOKEN });
    const authorization = `Bearer ${TOKEN}`;
    expect((await t.request({ url: '/metrics?x=1', headers: { authorization } })).statusCode).toBe(200);
    // Spellings the router takes to the metrics' route (a trailing slash, an encoded letter): not found.
    for (const url of ['/metrics/', '/metrics/?x=1', '/%6Detrics', '/%6detrics/']) {
      for (const headers of [{ authorization }, {}]) {
        const res = await t.request({ url, headers });
        expect(res.statusCode, url).toBe(404);
        expect(res.body, url).not.toContain('comando_');
      }
    }
    // Spellings that are other paths altogether: whatever answers, it is not the metrics.
    for (const url of ['//metrics', '/METRICS', '/metrics;x', '/metrics%2F']) {
      expect((await t.request({ url, headers: { authorization } })).body, url).not.toContain('comando_');
    }
  });

  it('moves the vote, photo, request and refusal counters, and parses as Prometheus text', async () => {
    t = await createTestApp({ metricsToken: TOKEN });
    const cookies = await signInPeople(t);
    const [first, second] = await addRecords(t, SLUG_A, 2);
    const before = await scrape();
    const voteRoute = { method: 'POST', route: '/api/validation/:slug/records/:id/vote' };
    expect(before.value('comando_votes_stored_total')).toBe(0);

    expect((await vote(first!, cookies.validatorA)).statusCode).toBe(201);
    // Voted already with another ballot: a refusal (409), and no second vote.
    expect((await vote(first!, cookies.validatorA, ['LC'])).statusCode).toBe(409);
    // Not on this department's list: the department does not exist for them.
    expect((await vote(second!, cookies.validatorB)).statusCode).toBe(404);
    const photo = await uploadPhoto(
      t,
      { slug: SLUG_A, recordId: first!, kind: 'gobernador' },
      { data: fixture('ballot.jpg'), filename: 'boleta.jpg', contentType: 'image/jpeg' },
      cookies.validatorA,
    );
    expect(photo.statusCode).toBe(201);

    const after = await scrape();
    expect(after.value('comando_votes_stored_total')).toBe(1);
    expect(after.value('comando_photos_stored_total', { kind: 'gobernador' })).toBe(1);
    expect(after.value('comando_http_requests_total', { ...voteRoute, status_code: '201' })).toBe(1);
    expect(after.value('comando_http_requests_total', { ...voteRoute, status_code: '409' })).toBe(1);
    // The parser folds a labelled histogram's series into one: its buckets are there, the labels not.
    const latency = after.family('comando_http_request_duration_seconds');
    expect(latency?.type).toBe('HISTOGRAM');
    expect(Object.keys(latency?.metrics[0]?.buckets ?? {})).toContain('+Inf');
    expect(after.value('comando_refusals_total', { reason: 'conflict', route: voteRoute.route })).toBe(1);
    expect(after.value('comando_refusals_total', { reason: 'not_found', route: voteRoute.route })).toBe(1);
    // A scrape with the token is no refusal.
    expect(after.value('comando_refusals_total', { reason: 'unauthenticated', route: '/metrics' })).toBe(0);
  });

  it('tells the open live streams, the items waiting on phones, the event-loop delay, the disk and the pool', async () => {
    t = await createTestApp(
      { metricsToken: TOKEN, dataDirMinFreeBytes: 200 * MB },
      { freeDiskBytes: async () => 300 * MB },
    );
    const metrics = await scrape();
    expect(metrics.value('comando_live_streams')).toBe(0);
    expect(metrics.family('comando_field_items_waiting')?.metrics.map((m) => m.labels?.department)).toContain(SLUG_A);
    expect(metrics.value('comando_field_items_waiting', { department: SLUG_A })).toBe(0);
    expect(metrics.names).toContain('nodejs_eventloop_lag_p99_seconds');
    // The data folder's disk as the injected reader sees it (a 1 GB disk with 300 MB free), and its floor.
    expect(metrics.value('comando_data_dir_free_bytes')).toBe(300 * MB);
    expect(metrics.value('comando_data_dir_min_free_bytes')).toBe(200 * MB);
    if (testDialect === 'postgres') {
      expect(metrics.value('comando_db_pool_connections', { state: 'total' })).toBeGreaterThan(0);
    } else {
      expect(metrics.names).not.toContain('comando_db_pool_connections');
    }
  });
});
