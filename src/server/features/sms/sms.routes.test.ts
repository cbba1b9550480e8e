import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app';
import { createRecordsRepository } from '#server/core/records/records.repository';
import { listAudit } from '#server/platform/audit/audit.repository';
import { openDatabase } from '#server/platform/db/database';
import { accountsOf } from '#server/testing/auth-helpers';
import { addRecords, PEOPLE, SLUG_A, SLUG_B, signInPeople } from '#server/testing/records';
import { createTestApp, setElectionPhase, type TestApp } from '#server/testing/test-app';
import { smsReplies } from '#shared/features/sms/sms';
import { normalisePhone } from '#shared/platform/phone';
import { recordCodeFor } from '#shared/platform/record-code';
import {
  caracasTime,
  type SmsGatewayContractServer,
  type SmsToDeliver,
  startSmsGatewayContractServer,
} from '#tests/support/sms-gateway-contract-server';
import { createSmsRepository } from './sms.repository';
import { dedupeKey, SMS_TAKEOVER_MS } from './sms.service';

const PHONE_A = '+584141234567';
const PHONE_B = '+584241112233';

let t: TestApp;
let gateway: SmsGatewayContractServer;
let webhook: string;
let now: Date;
afterEach(async () => {
  await t?.close();
  await gateway?.close();
});

type Cookies = Awaited<ReturnType<typeof signInPeople>>;

/** An app listening on a port with SMS on, the gateway's stand-in, validators A and B with their numbers. */
async function setup(options: { phase?: 'en_curso' | 'simulacro' | 'preparacion' } = {}): Promise<Cookies> {
  now = new Date('2026-12-06T15:00:00.000Z');
  const clock = () => now;
  gateway = await startSmsGatewayContractServer({ now: clock });
  t = await createTestApp(
    {
      now: clock,
      sms: {
        url: gateway.url,
        login: gateway.login,
        password: gateway.password,
        signingKey: gateway.signingKey,
        phone: '+584145556677',
      },
    },
    { electionPhase: options.phase ?? 'en_curso' },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('sin dirección');
  webhook = `http://127.0.0.1:${address.port}/api/sms/webhook`;
  const cookies = await signInPeople(t);
  const accounts = accountsOf(t.db.kysely);
  const actor = { email: 'pruebas', ip: null };
  await accounts.setSmsPhones(PEOPLE.validatorA, ['0414-123 45 67'], actor);
  await accounts.setSmsPhones(PEOPLE.validatorB, ['58 424 1112233'], actor);
  return cookies;
}

async function recordIn(slug: string, nombre = 'María Pérez'): Promise<{ id: number; code: string }> {
  const [id] = await addRecords(t, slug, [{ nombre }]);
  const row = await createRecordsRepository(t.db.kysely).findById(id as number);
  return { id: id as number, code: row?.short_code as string };
}

const sms = (text: string, from = PHONE_A, extra: Partial<SmsToDeliver> = {}) =>
  gateway.deliver(webhook, { from, text, ...extra });

const voteInApp = (id: number, candidates: string[], cookie: string, slug = SLUG_A) =>
  t.request({
    method: 'POST',
    url: `/api/validation/${slug}/records/${id}/vote`,
    headers: { cookie },
    payload: { candidates },
  });

async function ballots(): Promise<number> {
  return (await createRecordsRepository(t.db.kysely).voteTotals()).reduce((n, r) => n + r.ballots, 0);
}

async function messages() {
  return t.db.kysely.selectFrom('sms_messages').selectAll().orderBy('id').execute();
}

describe('SMS votes through the gateway', () => {
  it('applies a signed sms:received as the validator’s vote and answers through the official client', async () => {
    await setup();
    const { id, code } = await recordIn(SLUG_A);
    const res = await sms(`V ${code} FA LC`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ outcome: 'aplicado' });

    const record = await createRecordsRepository(t.db.kysely).findById(id);
    expect(record).toMatchObject({ vote_codes: 'FA,LC', voted_by: PEOPLE.validatorA });
    expect(await ballots()).toBe(1);
    const [audit] = await listAudit(t.db.kysely, { action: 'record.vote' });
    expect(audit).toMatchObject({ actor_email: PEOPLE.validatorA, target: `record:${id}`, department_slug: SLUG_A });
    // Auditoría tells it from a vote made in the app.
    expect(JSON.parse(audit?.details ?? '{}')).toEqual({ candidates: ['FA', 'LC'], channel: 'sms' });

    // The reply went through android-sms-gateway's own HTTP call, with its credentials.
    expect(gateway.sent).toEqual([
      expect.objectContaining({
        phoneNumbers: [PHONE_A],
        message: 'Registrado: María P., Cabimas: FA, LC',
        login: gateway.login,
        userAgent: expect.stringContaining('android-sms-gateway'),
      }),
    ]);
    const kept = await messages();
    expect(kept.map((m) => [m.direction, m.outcome])).toEqual([
      ['in', 'aplicado'],
      ['out', 'enviado'],
    ]);
    expect(kept[1]?.gateway_id).toBe(gateway.sent[0]?.id);
  });

  it('applies a replayed webhook once, and a second SMS with the same text at another time answers the stored vote', async () => {
    await setup();
    const { code } = await recordIn(SLUG_A);
    const first = await sms(`V ${code} FA`);
    const again = await gateway.redeliver(webhook, first);
    expect(again).toMatchObject({ status: 200, body: { outcome: 'duplicado' } });
    expect(await ballots()).toBe(1);
    expect(gateway.sent).toHaveLength(1);

    // The same text typed again a minute later is another SMS: counted once, answered with the vote.
    now = new Date(now.getTime() + 60_000);
    const later = await sms(`V ${code} FA`);
    expect(later.body).toEqual({ outcome: 'repetido' });
    expect(gateway.sent[1]?.message).toBe('Ya estaba registrado: María P., Cabimas: FA');
    expect(await ballots()).toBe(1);
  });

  it('applies a webhook delivered to two instances on one database once', async () => {
    await setup();
    const { code } = await recordIn(SLUG_A);
    const db = await openDatabase({ dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl });
    const second = await buildApp(t.config, { db, logger: false });
    try {
      await second.listen({ port: 0, host: '127.0.0.1' });
      const address = second.server.address();
      if (!address || typeof address === 'string') throw new Error('sin dirección');
      // The same delivery reaches both instances at once (a retry while the first is being answered).
      const request = gateway.prepare({ from: PHONE_A, text: `V ${code} FA` });
      const answers = await Promise.all([
        gateway.redeliver(`http://127.0.0.1:${address.port}/api/sms/webhook`, request),
        gateway.redeliver(webhook, request),
      ]);
      const applied = answers.filter((a) => (a.body as { outcome?: string }).outcome === 'aplicado');
      expect(applied).toHaveLength(1);
      // The other found it kept: finished ('duplicado'), or still being applied (503: delivered again later).
      const [other] = answers
        .filter((a) => !applied.includes(a))
        .map((a) => (a.status === 503 ? 'más tarde' : (a.body as { outcome?: string }).outcome));
      expect(['duplicado', 'más tarde']).toContain(other);
      expect(await gateway.redeliver(webhook, request)).toMatchObject({ status: 200, body: { outcome: 'duplicado' } });
      expect(await ballots()).toBe(1);
      expect(gateway.sent).toHaveLength(1);
      expect((await messages()).filter((m) => m.direction === 'in')).toHaveLength(1);
    } finally {
      await second.close();
      await db.close();
    }
  });

  it('applies a message its server died with once the gateway delivers it again, two minutes on, and once only', async () => {
    await setup();
    const { code } = await recordIn(SLUG_A);
    const text = `V ${code} FA`;
    const receivedAt = caracasTime(now);
    const phone = normalisePhone(PHONE_A) as string;
    // What a server that kept the message and died before applying it leaves behind.
    await createSmsRepository(t.db.kysely).insertReceived({
      direction: 'in',
      phone,
      user_email: null,
      department_id: null,
      record_id: null,
      body: text,
      outcome: 'recibido',
      reason: null,
      reply_to: null,
      dedupe_key: dedupeKey(phone, { from: PHONE_A, text, receivedAt, gatewayId: null }),
      gateway_id: null,
      phone_time: receivedAt,
      created_at: now.toISOString(),
    });
    // Delivered again at once, it may still be being applied: the gateway is asked to come back later.
    const soon = await sms(text, PHONE_A, { receivedAt });
    expect(soon.status).toBe(503);
    expect(await ballots()).toBe(0);
    now = new Date(now.getTime() + SMS_TAKEOVER_MS);
    const later = await sms(text, PHONE_A, { receivedAt });
    expect(later).toMatchObject({ status: 200, body: { outcome: 'aplicado' } });
    expect(await ballots()).toBe(1);
    expect(gateway.sent.map((m) => m.message)).toEqual(['Registrado: María P., Cabimas: FA']);
    // Once applied, it is a duplicate like any other.
    expect(await sms(text, PHONE_A, { receivedAt })).toMatchObject({ status: 200, body: { outcome: 'duplicado' } });
    expect((await messages()).filter((m) => m.direction === 'in')).toHaveLength(1);
  });

  it('refuses a forged signature and a timestamp older than five minutes, and keeps nothing of them', async () => {
    await setup();
    const { id, code } = await recordIn(SLUG_A);
    const forged = await sms(`V ${code} FA`, PHONE_A, { signingKey: 'otra-clave' });
    expect(forged.status).toBe(401);
    const unsigned = await sms(`V ${code} FA`, PHONE_A, { signature: '' });
    expect(unsigned.status).toBe(401);
    const old = await sms(`V ${code} FA`, PHONE_A, { timestamp: Math.floor(now.getTime() / 1000) - 6 * 60 });
    expect(old.status).toBe(401);
    // Within the window it is taken.
    const recent = await sms(`V ${code} FA`, PHONE_A, { timestamp: Math.floor(now.getTime() / 1000) - 4 * 60 });
    expect(recent.status).toBe(200);
    expect(await messages()).toHaveLength(2);
    expect((await createRecordsRepository(t.db.kysely).findById(id))?.vote_codes).toBe('FA');
  });

  it('answers an unknown number and a record of another department without applying, and alike for a code nobody has', async () => {
    await setup();
    const { id, code } = await recordIn(SLUG_B);
    const unknown = await sms(`V ${code} FA`, '+584165550000');
    expect(unknown.body).toEqual({ outcome: 'rechazado' });
    expect(gateway.sent[0]).toMatchObject({ phoneNumbers: ['+584165550000'], message: smsReplies.unknownSender });

    const otherDepartment = await sms(`V ${code} FA`);
    expect(otherDepartment.body).toEqual({ outcome: 'rechazado' });
    expect(gateway.sent[1]?.message).toBe(smsReplies.recordNotFound(code));
    // A code that is no record's (but a valid one) gets the very same words.
    const nobody = recordCodeFor(999_999);
    await sms(`V ${nobody} FA`);
    expect(gateway.sent[2]?.message).toBe(smsReplies.recordNotFound(nobody));
    expect((await createRecordsRepository(t.db.kysely).findById(id))?.voted_at).toBeNull();
    expect(await ballots()).toBe(0);

    // B's own validator votes it.
    const own = await sms(`V ${code} NR`, PHONE_B);
    expect(own.body).toEqual({ outcome: 'aplicado' });
  });

  it('answers a malformed message with how to write it, and keeps it', async () => {
    await setup();
    const res = await sms('hola, quiero votar');
    expect(res.body).toEqual({ outcome: 'malformado' });
    expect(gateway.sent[0]?.message).toContain('Escribe: V CODIGO FA LC');
    const [kept] = await messages();
    expect(kept).toMatchObject({ outcome: 'malformado', body: 'hola, quiero votar', user_email: PEOPLE.validatorA });
  });

  it('counts a vote once across SMS and the app: same candidates get the original answer, different ones 409', async () => {
    const cookies = await setup();
    const first = await recordIn(SLUG_A, 'Ana Díaz');
    await sms(`V ${first.code} FA LC`);
    // SMS then app, the same ballot (the phone's queue sends it later): the stored vote's answer.
    const same = await voteInApp(first.id, ['LC', 'FA'], cookies.validatorA);
    expect(same.statusCode).toBe(201);
    expect(same.headers['idempotent-replayed']).toBe('true');
    expect(same.json().record).toMatchObject({ id: first.id, votes: ['FA', 'LC'] });
    // SMS then app, another ballot: the usual conflict with who and when.
    const different = await voteInApp(first.id, ['NR'], cookies.validatorA);
    expect(different.statusCode).toBe(409);
    expect(different.json().message).toContain(`votado por ${PEOPLE.validatorA}`);

    // App then SMS: the same ballot is answered as registered, another one refused with who and when.
    const second = await recordIn(SLUG_A, 'Luis Gómez');
    expect((await voteInApp(second.id, ['NR'], cookies.validatorA)).statusCode).toBe(201);
    expect((await sms(`V ${second.code} NR`)).body).toEqual({ outcome: 'repetido' });
    expect(gateway.sent.at(-1)?.message).toBe('Ya estaba registrado: Luis G., Cabimas: NR');
    now = new Date(now.getTime() + 1_000);
    expect((await sms(`V ${second.code} FA`)).body).toEqual({ outcome: 'rechazado' });
    expect(gateway.sent.at(-1)?.message).toContain(
      `No se registró: el trámite ${second.code} ya fue votado por ${PEOPLE.validatorA}`,
    );
    expect(await ballots()).toBe(2);
  });

  it('takes two SMS about the same record at once as one vote', async () => {
    await setup();
    const { id, code } = await recordIn(SLUG_A);
    const answers = await Promise.all([sms(`V ${code} FA`), sms(`v ${code} lc`, PHONE_A)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const outcomes = answers.map((a) => (a.body as { outcome: string }).outcome).sort();
    expect(outcomes).toEqual(['aplicado', 'rechazado']);
    expect(await ballots()).toBe(1);
    expect((await listAudit(t.db.kysely, { action: 'record.vote' })).length).toBe(1);
    expect(['FA', 'LC']).toContain((await createRecordsRepository(t.db.kysely).findById(id))?.vote_codes);
  });

  it('obeys the day’s phase like the app: refused in Preparación, a drill vote in Simulacro', async () => {
    await setup({ phase: 'preparacion' });
    const { code } = await recordIn(SLUG_A);
    expect((await sms(`V ${code} FA`)).body).toEqual({ outcome: 'rechazado' });
    expect(gateway.sent[0]?.message).toContain('No se registró: La jornada está en preparación');
    await setElectionPhase(t.db, 'simulacro', now);
    now = new Date(now.getTime() + 1_000);
    expect((await sms(`V ${code} FA`)).body).toEqual({ outcome: 'aplicado' });
    const [audit] = await listAudit(t.db.kysely, { action: 'record.vote' });
    expect(JSON.parse(audit?.details ?? '{}')).toMatchObject({ drill: true });
  });

  it('limits messages per number over a minute of the server’s clock, without answering past the limit', async () => {
    await setup();
    for (let i = 0; i < 10; i++) {
      now = new Date(now.getTime() + 1_000);
      expect((await sms(`hola ${i}`)).body).toEqual({ outcome: 'malformado' });
    }
    now = new Date(now.getTime() + 1_000);
    expect((await sms('hola 10')).body).toEqual({ outcome: 'limitado' });
    expect(gateway.sent).toHaveLength(10);
    // Another number is not limited by this one.
    expect((await sms('hola', PHONE_B)).body).toEqual({ outcome: 'malformado' });
    // A minute later the number is heard again.
    now = new Date(now.getTime() + 60_000);
    expect((await sms('hola 11')).body).toEqual({ outcome: 'malformado' });
  });

  it('keeps the vote and logs the reply as failed when the gateway is down', async () => {
    await setup();
    const { code } = await recordIn(SLUG_A);
    gateway.mode = 'down';
    expect((await sms(`V ${code} FA`)).body).toEqual({ outcome: 'aplicado' });
    const out = (await messages()).find((m) => m.direction === 'out');
    expect(out).toMatchObject({ outcome: 'fallido' });
    expect(await ballots()).toBe(1);
  });
});

describe('Mensajes', () => {
  it('lists every message for admins, by department and by number however it is written', async () => {
    const cookies = await setup();
    const a = await recordIn(SLUG_A);
    const b = await recordIn(SLUG_B, 'Pedro Pérez');
    await sms(`V ${a.code} FA`);
    await sms(`V ${b.code} LC`, PHONE_B);
    await sms('mensaje sin sentido');
    const list = (query: string, cookie = cookies.admin) =>
      t.request({ url: `/api/admin/sms/messages${query}`, headers: { cookie } });

    const all = (await list('')).json();
    expect(all.items).toHaveLength(6);
    expect(all.items[0]).toMatchObject({ direction: 'out', phone: PHONE_A });
    const cabimas = (await list(`?department=${SLUG_A}`)).json();
    expect(cabimas.items.map((m: { direction: string; outcome: string }) => [m.direction, m.outcome])).toEqual([
      ['out', 'enviado'],
      ['in', 'aplicado'],
    ]);
    expect(cabimas.items[1]).toMatchObject({
      department: { slug: SLUG_A, title: 'Cabimas' },
      userEmail: PEOPLE.validatorA,
    });
    const byNumber = (await list(`?phone=${encodeURIComponent('0424-111 22 33')}`)).json();
    expect(byNumber.items).toHaveLength(2);
    expect(byNumber.items.every((m: { phone: string }) => m.phone === PHONE_B)).toBe(true);

    expect((await list('', cookies.validatorA)).statusCode).toBe(404);
    expect((await t.request({ url: '/api/admin/sms/messages' })).statusCode).toBe(401);
  });
});

describe('Mensajes: the state of SMS', () => {
  const status = (cookie: string) => t.request({ url: '/api/admin/sms/status', headers: { cookie } });

  it('says the gateway is configured and answering, the number validators text and the last message received', async () => {
    const cookies = await setup();
    expect((await status(cookies.admin)).json()).toEqual({
      configured: true,
      phone: '+584145556677',
      gateway: { answering: true, reason: null },
      checkedAt: now.toISOString(),
      lastReceived: null,
    });
    const { code } = await recordIn(SLUG_A);
    await sms(`V ${code} FA`);
    now = new Date(now.getTime() + 60_000);
    await sms('hola', PHONE_B);
    expect((await status(cookies.admin)).json().lastReceived).toEqual({
      at: now.toISOString(),
      phone: PHONE_B,
      userEmail: PEOPLE.validatorB,
      outcome: 'malformado',
    });

    expect((await status(cookies.validatorA)).statusCode).toBe(404);
    expect((await t.request({ url: '/api/admin/sms/status' })).statusCode).toBe(401);
  });

  it('says the gateway is not answering, and why, when it is down', async () => {
    const cookies = await setup();
    gateway.mode = 'down';
    const body = (await status(cookies.admin)).json();
    expect(body.configured).toBe(true);
    expect(body.gateway).toEqual({ answering: false, reason: expect.stringContaining('500') });
  });

  it('says SMS is off when no gateway is configured', async () => {
    t = await createTestApp();
    const cookies = await signInPeople(t);
    expect((await status(cookies.admin)).json()).toMatchObject({
      configured: false,
      phone: null,
      gateway: null,
      lastReceived: null,
    });
  });
});

describe('SMS off', () => {
  it('answers 404 to the webhook when no gateway is configured', async () => {
    t = await createTestApp();
    const res = await t.request({
      method: 'POST',
      url: '/api/sms/webhook',
      payload: { event: 'sms:received', payload: {} },
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('record codes', () => {
  it('gives validators a record’s code on its card only while SMS votes are on', async () => {
    const cookies = await setup();
    const { id, code } = await recordIn(SLUG_A);
    const list = await t.request({ url: `/api/validation/${SLUG_A}/records`, headers: { cookie: cookies.validatorA } });
    expect(list.json().items[0]).toMatchObject({ id, code });
    expect((await voteInApp(id, ['FA'], cookies.validatorA)).json().record).toMatchObject({ id, code });
    await t.close();
    await gateway.close();

    t = await createTestApp();
    const off = await signInPeople(t);
    const [other] = await addRecords(t, SLUG_A, [{ nombre: 'Ana Díaz' }]);
    const offList = await t.request({ url: `/api/validation/${SLUG_A}/records`, headers: { cookie: off.validatorA } });
    expect(offList.json().items[0]).toMatchObject({ id: other, code: '' });
    expect((await voteInApp(other as number, ['FA'], off.validatorA)).json().record).toMatchObject({ code: '' });
  });

  it('gives every new record its short code and finds it however it is typed', async () => {
    t = await createTestApp();
    const ids = await addRecords(t, SLUG_A, 3);
    const rows = await t.db.kysely.selectFrom('records').select(['id', 'short_code']).where('id', 'in', ids).execute();
    for (const row of rows) expect(row.short_code).toBe(recordCodeFor(row.id));
  });
});
