// `npm run bench -- sms`: 500 votes by SMS, each delivered as the Android gateway's signed webhook at 50
// a second (the gateway's own pace is far lower), from 100 validators' numbers, with every tenth
// delivery sent a second time (the gateway's retry). Prints the p50 and p99 of the webhook's answer and
// checks what the database and the gateway's stand-in hold afterwards: every SMS applied once, every
// record voted once, one reply sent per SMS (docs/decisions/084).
import path from 'node:path';
import Database from 'better-sqlite3';
import { createAccountsService } from '#server/features/people/accounts.service';
import { createUser } from '#server/testing/auth-helpers';
import {
  type SmsGatewayContractServer,
  startSmsGatewayContractServer,
} from '#tests/support/sms-gateway-contract-server';
import { seedBenchRecords } from './data/records-seed';
import type { BenchSuite } from './types';

const SLUGS = ['mara', 'cabimas', 'lagunillas', 'sucre'];
const VALIDATORS = 100;
const MESSAGES = 500;
const PER_SECOND = 50;
/** Sent first and left out of the figures, as the other suites' warm-up: the server's first requests compile. */
const WARM_UP = 20;
const NAME = 'SMS: votos por la pasarela';
let gateway: SmsGatewayContractServer | undefined;
/** Each validator's number, department and the codes of the records it votes. */
let senders: { phone: string; codes: string[] }[] = [];
/** The warm-up's numbers (one account's four: ten messages a minute per number, SMS_LIMITS) and codes. */
let warmUp: { phones: string[]; codes: string[] } = { phones: [], codes: [] };

const percentile = (xs: number[], p: number) => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
};

export const suite: BenchSuite = {
  name: NAME,
  env: {},
  async seed(db) {
    gateway = await startSmsGatewayContractServer();
    Object.assign(suite.env ?? {}, {
      SMS_GATEWAY_URL: gateway.url,
      SMS_GATEWAY_LOGIN: gateway.login,
      SMS_GATEWAY_PASSWORD: gateway.password,
      SMS_WEBHOOK_SIGNING_KEY: gateway.signingKey,
    });
    const { ids } = await seedBenchRecords(db, MESSAGES, { departments: SLUGS });
    const warmIds = (await seedBenchRecords(db, WARM_UP, { departments: ['baralt'] })).ids.baralt ?? [];
    const codes = new Map(
      (await db.kysely.selectFrom('records').select(['id', 'short_code']).execute()).map((r) => [r.id, r.short_code]),
    );
    const accounts = createAccountsService(db.kysely, () => new Date());
    await createUser(db, { email: 'bench.sms.calienta@comando.example', role: 'staff', departments: ['baralt'] });
    warmUp = {
      phones: ['+584149999990', '+584149999991', '+584149999992', '+584149999993'],
      codes: warmIds.map((id) => codes.get(id) as string),
    };
    await accounts.setSmsPhones('bench.sms.calienta@comando.example', warmUp.phones, { email: 'bench', ip: null });
    senders = [];
    for (let i = 0; i < VALIDATORS; i++) {
      const slug = SLUGS[i % SLUGS.length] as string;
      const email = `bench.sms.${i}@comando.example`;
      await createUser(db, { email, role: 'staff', departments: [slug] });
      const phone = `+58414${String(1_000_000 + i).padStart(7, '0')}`;
      await accounts.setSmsPhones(email, [phone], { email: 'bench', ip: null });
      // The validator's records: every (VALIDATORS / departments)-th of its department's.
      const mine = (ids[slug] ?? []).filter((_, k) => k % (VALIDATORS / SLUGS.length) === Math.floor(i / SLUGS.length));
      senders.push({ phone, codes: mine.map((id) => codes.get(id) as string) });
    }
  },
  cases: [],
  async extra(origin, _pid, dataDir) {
    if (!gateway) throw new Error('sin pasarela');
    const webhook = `${origin}/api/sms/webhook`;
    const messages = senders.flatMap((s) =>
      s.codes.map((code, k) => ({ from: s.phone, text: `V ${code} ${k % 2 ? 'FA LC' : 'NR'}` })),
    );
    for (const [i, code] of warmUp.codes.entries()) {
      await gateway.deliver(webhook, { from: warmUp.phones[i % warmUp.phones.length] as string, text: `V ${code} FA` });
    }
    const times: number[] = [];
    const outcomes = new Map<string, number>();
    const count = (key: string) => outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    const started = performance.now();
    await Promise.all(
      messages.map(async (sms, i) => {
        // One every 20 ms: 50 a second, whatever the answers take.
        await new Promise((resolve) =>
          setTimeout(resolve, Math.max(0, started + (i * 1000) / PER_SECOND - performance.now())),
        );
        const request = gateway!.prepare(sms);
        const send = async () => {
          const t0 = performance.now();
          const answer = await gateway!.redeliver(webhook, request);
          times.push(performance.now() - t0);
          count(answer.status === 200 ? (answer.body as { outcome: string }).outcome : `HTTP ${answer.status}`);
        };
        await send();
        if (i % 10 === 0) await send();
      }),
    );
    const took = (performance.now() - started) / 1000;
    await gateway.whenSent(WARM_UP + MESSAGES);

    const db = new Database(path.join(dataDir, 'comando.sqlite'), { readonly: true, fileMustExist: true });
    const one = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    // The warm-up's own records and messages left out.
    const voted = one(`select count(*) as n from records where voted_at is not null`) - WARM_UP;
    const applied =
      one(`select count(*) as n from sms_messages where direction = 'in' and outcome = 'aplicado'`) - WARM_UP;
    const replies =
      one(`select count(*) as n from sms_messages where direction = 'out' and outcome = 'enviado'`) - WARM_UP;
    const ballots = one(`select coalesce(sum(ballots), 0) as n from vote_totals`) - WARM_UP;
    const sent = gateway.sent.length - WARM_UP;
    db.close();
    await gateway.close();

    const ok =
      voted === MESSAGES &&
      applied === MESSAGES &&
      replies === MESSAGES &&
      ballots === MESSAGES &&
      sent === MESSAGES;
    return [
      {
        suite: NAME,
        caso: `${MESSAGES} SMS a ${PER_SECOND}/s (+${Math.ceil(MESSAGES / 10)} reentregas), ${VALIDATORS} números`,
        'req/s': Math.round(times.length / took),
        'p50 ms': Math.round(percentile(times, 50)),
        'p99 ms': Math.round(percentile(times, 99)),
        'máx ms': Math.round(Math.max(...times)),
        objetivo: 'p99 < 200 ms; todos aplicados una vez, una respuesta cada uno',
        respuestas: [...outcomes].map(([k, n]) => `${n} × ${k}`).join(', '),
        dejaron: `${voted} votados, ${ballots} boletas, ${applied} aplicados, ${replies} respuestas (${sent} en la pasarela)`,
        ok: ok && percentile(times, 99) < 200 ? 'sí' : 'NO',
      },
    ];
  },
};
