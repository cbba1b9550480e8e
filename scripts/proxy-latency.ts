// How soon a vote reaches the live results through nginx across instances: `npx tsx scripts/proxy-latency.ts
// [votes]` (200 by default; needs nginx, PostgreSQL and `npm run build`). Starts the setup of the proxy
// end-to-end project (tests/e2e/support/behind-nginx.ts), opens the projector's stream through nginx,
// votes one record after another through nginx and times each from the vote's 201 to the frame that
// carries it; prints p50, p95 and the slowest, and how many votes the other instance stored.
import https from 'node:https';
import pg from 'pg';
import { RESULTS_EVENT } from '#shared/features/results/results';
import { PROXY_ACCOUNTS, startBehindNginx } from '#tests/e2e/support/behind-nginx';

const VOTES = Number(process.argv[2] ?? 200);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const agent = new https.Agent({ keepAlive: true, rejectUnauthorized: false });

function call(origin: string, method: string, path: string, cookie: string, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      `${origin}${path}`,
      {
        method,
        agent,
        headers: { origin, cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

async function signIn(origin: string, email: string): Promise<string> {
  const res = await call(origin, 'POST', '/api/auth/login', '', { email, password: PROXY_ACCOUNTS.password });
  if (res.status !== 200) throw new Error(`No se pudo entrar como ${email}: ${res.body}`);
  return ((res.headers['set-cookie'] as string[] | undefined) ?? []).map((c) => c.split(';')[0]).join('; ');
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

const setup = await startBehindNginx({ unvoted: VOTES });
try {
  const { origin } = setup;
  const admin = await signIn(origin, PROXY_ACCOUNTS.admin);
  const validator = await signIn(origin, PROXY_ACCOUNTS.validator);
  const client = new pg.Client({ connectionString: setup.databaseUrl });
  await client.connect();
  const records = (
    await client.query<{ id: number }>(`select id from records where nombre like 'Persona Votante 1 %' order by id`)
  ).rows.map((r) => r.id);
  await client.end();

  // The projector's stream, through nginx: every frame's ballots, when it arrived.
  let onBallots: ((ballots: number) => void) | undefined;
  const stream = https.get(
    `${origin}/api/results/stream`,
    { agent: false, rejectUnauthorized: false, headers: { cookie: admin, accept: 'text/event-stream' } },
    (res) => {
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split('\n').find((l) => l.startsWith('data: '));
          if (frame.startsWith(`event: ${RESULTS_EVENT}`) && data) onBallots?.(JSON.parse(data.slice(6)).ballots);
        }
      });
    },
  );
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const streams = await Promise.all(setup.instances.map((i) => setup.metric(i, /^comando_live_streams /)));
  const streaming = streams.findIndex((n) => n > 0);

  const times: number[] = [];
  for (const [i, id] of records.slice(0, VOTES).entries()) {
    const arrived = new Promise<number>((resolve, reject) => {
      const backstop = setTimeout(
        () => reject(new Error(`El voto ${i + 1} no llegó a la transmisión en 10 s`)),
        10_000,
      );
      onBallots = (ballots) => {
        if (ballots >= i + 1) {
          clearTimeout(backstop);
          resolve(performance.now());
        }
      };
    });
    const res = await call(origin, 'POST', `/api/validation/${PROXY_ACCOUNTS.slug}/records/${id}/vote`, validator, {
      candidates: ['FA'],
    });
    const answered = performance.now();
    if (res.status !== 201) throw new Error(`Voto ${i + 1}: ${res.status} ${res.body}`);
    times.push((await arrived) - answered);
  }
  stream.destroy();
  const stored = await Promise.all(setup.instances.map((i) => setup.metric(i, /^comando_votes_stored_total /)));
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `${VOTES} votos a través de nginx, transmisión en la instancia ${setup.instances[streaming]?.name ?? '?'}; ` +
      `votos guardados por A: ${stored[0]}, por B: ${stored[1]}`,
  );
  console.log(
    `del 201 del voto al cuadro de la transmisión: p50 ${percentile(sorted, 50).toFixed(0)} ms, ` +
      `p95 ${percentile(sorted, 95).toFixed(0)} ms, máximo ${sorted.at(-1)?.toFixed(0)} ms`,
  );
} finally {
  await setup.stop();
  agent.destroy();
}
