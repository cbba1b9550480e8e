import { afterEach, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { runCli } from './cli';

let t: TestApp;
afterEach(async () => t?.close());

function cli(password = 'secreto-123') {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), readPassword: async () => password };
  return {
    out,
    err,
    run: (...argv: string[]) => runCli(argv, t.db.kysely, io),
  };
}

const login = (email: string, password: string) =>
  t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password } });

describe('command line', () => {
  it('creates the first admin, who can then sign in', async () => {
    t = await createTestApp();
    const c = cli('primera-clave');
    expect(await c.run('user:add', 'Jefa@Example.org', '--admin')).toBe(0);
    expect(c.out).toEqual(['Cuenta creada: jefa@example.org (administrador).']);
    const res = await login('jefa@example.org', 'primera-clave');
    expect(res.statusCode).toBe(200);
    expect(res.json().home).toBe('/resultados');
    expect(await c.run('user:list')).toBe(0);
    expect(c.out.at(-1)).toMatch(/^jefa@example\.org\tadmin\tactiva\túltimo acceso /);
  });

  it('changes passwords, disables and enables accounts, and audits as the operator', async () => {
    t = await createTestApp();
    await cli('clave-vieja').run('user:add', 'ana@example.org');
    expect((await login('ana@example.org', 'clave-vieja')).statusCode).toBe(200);
    expect(await cli('clave-nueva').run('user:password', 'ana@example.org')).toBe(0);
    expect((await login('ana@example.org', 'clave-vieja')).statusCode).toBe(401);
    expect((await login('ana@example.org', 'clave-nueva')).statusCode).toBe(200);
    expect(await cli().run('user:disable', 'ana@example.org')).toBe(0);
    expect((await login('ana@example.org', 'clave-nueva')).statusCode).toBe(401);
    expect(await cli().run('user:enable', 'ana@example.org')).toBe(0);
    expect((await login('ana@example.org', 'clave-nueva')).statusCode).toBe(200);
    const actions = (await listAudit(t.db.kysely)).filter((r) => r.action.startsWith('user.'));
    expect(actions).toHaveLength(4);
    expect(actions.every((r) => r.actor_email?.startsWith('cli:'))).toBe(true);
  });

  it('sets and clears the numbers an account votes by SMS from', async () => {
    t = await createTestApp();
    await cli().run('user:add', 'ana@example.org');
    const c = cli();
    expect(await c.run('user:sms-phones', 'ana@example.org', '0414-123 45 67', '+58 424 7654321')).toBe(0);
    expect(c.out.at(-1)).toBe('ana@example.org vota por SMS desde: +584141234567, +584247654321.');
    const phones = await t.db.kysely.selectFrom('user_phones').select('phone').orderBy('phone').execute();
    expect(phones.map((p) => p.phone)).toEqual(['+584141234567', '+584247654321']);
    expect(await c.run('user:sms-phones', 'ana@example.org')).toBe(0);
    expect(c.out.at(-1)).toBe('ana@example.org ya no vota por SMS desde ningún número.');
    expect(await c.run('user:sms-phones', 'ana@example.org', 'no-es-un-numero')).not.toBe(0);
  });

  it('asks no password where Firebase Auth checks them', async () => {
    t = await createTestApp();
    const out: string[] = [];
    const err: string[] = [];
    const io = {
      out: (l: string) => out.push(l),
      err: (l: string) => err.push(l),
      readPassword: async (): Promise<string> => {
        throw new Error('no debería pedir una contraseña');
      },
    };
    const run = (...argv: string[]) => runCli(argv, t.db.kysely, io, () => new Date(), 'firebase');
    expect(await run('user:add', 'ana@example.org', '--admin')).toBe(0);
    expect(out).toEqual(['Cuenta creada: ana@example.org (administrador); entra con su cuenta de Firebase.']);
    // It has no password of ours: nothing signs in with one.
    expect((await login('ana@example.org', '!firebase')).statusCode).toBe(401);
    expect(await run('user:password', 'ana@example.org')).not.toBe(0);
    expect(err.at(-1)).toBe('Con Firebase Auth las contraseñas se cambian en Firebase, no en Comando.');
  });

  it('grants, lists and revokes a department for an e-mail', async () => {
    t = await createTestApp();
    const c = cli();
    expect(await c.run('access:grant', 'Ana@example.org', 'cabimas')).toBe(0);
    expect(await c.run('access:grant', 'luis@example.org', 'cabimas')).toBe(0);
    expect(await c.run('access:grant', 'ana@example.org', 'cabimas')).toBe(0);
    expect(c.out.at(-1)).toBe('ana@example.org ya estaba en cabimas.');
    c.out.length = 0;
    expect(await c.run('access:list', 'cabimas')).toBe(0);
    expect(c.out).toEqual(['ana@example.org', 'luis@example.org']);
    expect(await c.run('access:revoke', 'ana@example.org', 'cabimas')).toBe(0);
    c.out.length = 0;
    await c.run('access:list', 'cabimas');
    expect(c.out).toEqual(['luis@example.org']);
  });

  it('explains mistakes in Spanish with a non-zero exit code', async () => {
    t = await createTestApp();
    const c = cli('corta-123');
    expect(await c.run('user:add', 'ana@example.org')).toBe(1);
    expect(c.err.at(-1)).toBe('Una contraseña nueva debe tener al menos 10 caracteres.');
    expect(await cli('1q2w3e4r5t').run('user:add', 'ana@example.org')).toBe(1);
    const repeated = cli('11111111111');
    expect(await repeated.run('user:add', 'ana@example.org')).toBe(1);
    expect(repeated.err.at(-1)).toBe('Una contraseña nueva no puede ser un mismo carácter repetido. Elige otra.');
    const series = cli('1234567890ab');
    expect(await series.run('user:add', 'ana@example.org')).toBe(1);
    expect(series.err.at(-1)).toMatch(/^Esa contraseña se adivina fácilmente/);
    expect(await c.run('user:add', 'no-es-correo')).toBe(1);
    expect(c.err.at(-1)).toBe('El formato del email es inválido.');
    expect(await c.run('access:grant', 'ana@example.org', 'no-existe')).toBe(1);
    expect(c.err.at(-1)).toBe('No existe el departamento no-existe.');
    expect(await c.run('user:disable', 'nadie@example.org')).toBe(1);
    expect(await c.run('user:add')).toBe(2);
    expect(await c.run('borrar-todo')).toBe(2);
    expect(c.err.at(-2)).toMatch(/^Orden desconocida: borrar-todo/);
  });
});
