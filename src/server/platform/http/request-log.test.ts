import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import type { Config } from '#server/platform/config/config';
import { createTestDb, testConfig } from '#server/testing/test-app';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** The JSON lines the app logs while it answers one request, at the given env and LOG_LEVEL. */
async function linesOfOneRequest(env: Config['env'], level: string): Promise<{ level: number; msg: string }[]> {
  const testDb = await createTestDb({ migrated: true });
  const log: string[] = [];
  const app = await buildApp(testConfig({ ...testDb.options, env }), {
    db: testDb.db,
    logger: { level, stream: { write: (line: string) => log.push(line) } },
  });
  close = async () => {
    await app.close();
    await testDb.destroy();
  };
  await app.ready();
  log.length = 0;
  expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);
  return log.map((line) => JSON.parse(line));
}

const requestLines = (lines: { msg: string }[]) =>
  lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed').map((l) => l.msg);

describe('request logs', () => {
  it('stay out of a developer’s terminal at the default level', async () => {
    expect(requestLines(await linesOfOneRequest('development', 'info'))).toEqual([]);
  });

  it('show in development when asked for with LOG_LEVEL=debug', async () => {
    const lines = await linesOfOneRequest('development', 'debug');
    expect(requestLines(lines)).toEqual(['incoming request', 'request completed']);
    expect(lines.find((l) => l.msg === 'request completed')?.level).toBe(20);
  });

  it('are JSON at info in production, as a log store expects them', async () => {
    const lines = await linesOfOneRequest('production', 'info');
    expect(requestLines(lines)).toEqual(['incoming request', 'request completed']);
    expect(lines.find((l) => l.msg === 'request completed')).toMatchObject({
      level: 30,
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
  });
});
