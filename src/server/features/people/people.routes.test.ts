import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from '#server/platform/audit/audit.repository';
import { freshEmail, userId } from '#server/testing/admin';
import { createUser, loginAs, sessionCookie, TEST_PASSWORD } from '#server/testing/auth-helpers';
import { createTestApp, type TestApp } from '#server/testing/test-app';

let t: TestApp;
let admin: string;
let staff: string;
const ADMIN = 'jefa@example.org';

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { email: ADMIN, role: 'admin' });
  await createUser(t.db, { email: 'ana@example.org', role: 'staff', departments: ['cabimas', 'agenda'] });
  admin = await sessionCookie(t, ADMIN);
  staff = await sessionCookie(t, 'ana@example.org');
});
afterAll(async () => t?.close());

const get = (url: string, cookie = admin) => t.request({ url, headers: { cookie } });
const send = (method: 'POST' | 'PATCH' | 'PUT', url: string, payload: object, cookie = admin) =>
  t.request({ method, url, headers: { cookie }, payload });
const sessionOf = async (cookie: string) => (await get('/api/auth/session', cookie)).json();
const lastAudit = async (action: string) => (await listAudit(t.db.kysely, { action, limit: 1 }))[0];
const OTP_SHAPE = /^[a-hj-km-np-z2-9]{4}-[a-hj-km-np-z2-9]{4}-[a-hj-km-np-z2-9]{4}$/;
const COMMON = 'Esa contraseña es de las más usadas y se adivina enseguida. Elige otra menos común.';
const REPEATED = 'Una contraseña nueva no puede ser un mismo carácter repetido. Elige otra.';
const WEAK =
  'Esa contraseña se adivina fácilmente (una serie, una fila del teclado o una palabra con una fecha). ' +
  'Elige otra: por ejemplo, tres o cuatro palabras unidas con guiones.';

describe('who may use the people API', () => {
  it('answers a visitor 401 and anyone but an admin the unknown-resource 404, even with a bad body', async () => {
    expect((await t.request({ url: '/api/admin/users' })).statusCode).toBe(401);
    const asStaff = await get('/api/admin/users', staff);
    expect(asStaff.statusCode).toBe(404);
    expect(asStaff.json().message).toBe('El recurso solicitado no existe.');
    expect((await send('POST', '/api/admin/users', { email: 'x' }, staff)).statusCode).toBe(404);
    // The Agenda list opens the agenda section only, not people.
    expect((await send('POST', '/api/admin/access/bulk', { text: 'a@b.co' }, staff)).statusCode).toBe(404);
  });
});

describe('GET /api/admin/users', () => {
  it('lists accounts with role, state, last sign-in, second factor and departments, never a password hash', async () => {
    const res = await get('/api/admin/users');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).not.toMatch(/argon2|password/i);
    const ana = res.json().items.find((u: { email: string }) => u.email === 'ana@example.org');
    expect(ana).toMatchObject({
      role: 'staff',
      disabled: false,
      secondFactor: false,
      departments: [
        { slug: 'agenda', title: 'Agenda' },
        { slug: 'cabimas', title: 'Cabimas' },
      ],
    });
    expect(ana.lastLoginAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(Object.keys(ana).sort()).toEqual(
      [
        'createdAt',
        'departments',
        'disabled',
        'email',
        'id',
        'lastLoginAt',
        'role',
        'secondFactor',
        'smsPhones',
      ].sort(),
    );
  });

  it('searches by part of the e-mail, role, state and department, fifty at a time', async () => {
    for (let i = 0; i < 55; i++)
      await createUser(t.db, { email: `lote${String(i).padStart(2, '0')}@lista.org`, role: 'staff' });
    await createUser(t.db, { email: 'Otra.Jefa@Lista.org', role: 'admin', departments: ['sucre'] });
    const page1 = (await get('/api/admin/users?q=LISTA.org')).json();
    expect(page1.total).toBe(56);
    expect(page1.items).toHaveLength(50);
    expect(page1.pageSize).toBe(50);
    const page2 = (await get('/api/admin/users?q=lista.org&page=2')).json();
    expect(page2.items.map((u: { email: string }) => u.email)).toEqual([
      'lote50@lista.org',
      'lote51@lista.org',
      'lote52@lista.org',
      'lote53@lista.org',
      'lote54@lista.org',
      'otra.jefa@lista.org',
    ]);
    const admins = (await get('/api/admin/users?q=lista&role=admin')).json();
    expect(admins.items.map((u: { email: string }) => u.email)).toEqual(['otra.jefa@lista.org']);
    const inSucre = (await get('/api/admin/users?department=sucre')).json();
    expect(inSucre.items.map((u: { email: string }) => u.email)).toEqual(['otra.jefa@lista.org']);
    // Empty filters mean "any"; a LIKE wildcard is looked for literally.
    expect((await get('/api/admin/users?q=&role=&status=&department=')).json().total).toBeGreaterThan(56);
    expect((await get('/api/admin/users?q=%25')).json().total).toBe(0);
    expect((await get('/api/admin/users?role=jefe')).statusCode).toBe(400);
  });
});

describe('POST /api/admin/users', () => {
  it('creates an account with a one-time password shown once, and its departments; all audited', async () => {
    const res = await send('POST', '/api/admin/users', {
      email: '  Nueva.Persona@Example.org ',
      role: 'staff',
      departments: ['lagunillas', 'notas'],
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.oneTimePassword).toMatch(OTP_SHAPE);
    expect(body.user).toMatchObject({
      email: 'nueva.persona@example.org',
      role: 'staff',
      disabled: false,
      lastLoginAt: null,
      departments: [
        { slug: 'notas', title: 'Notas' },
        { slug: 'lagunillas', title: 'Lagunillas' },
      ],
    });
    // The password works, to choose another first (then the menu opens); it is stored only as a hash.
    const cookie = await loginAs(t, 'nueva.persona@example.org', body.oneTimePassword);
    expect((await sessionOf(cookie)).user.mustChangePassword).toBe(true);
    const changed = await t.request({
      method: 'POST',
      url: '/api/auth/password',
      headers: { cookie },
      payload: { currentPassword: body.oneTimePassword, newPassword: 'clave-propia-2026' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await sessionOf(cookie)).home).toBe('/notas');
    const stored = await t.db.kysely
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', 'nueva.persona@example.org')
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    expect((await get('/api/admin/users?q=nueva.persona')).body).not.toContain(body.oneTimePassword);

    const created = await lastAudit('user.create');
    expect([created?.actor_email, created?.target, created?.ip]).toEqual([
      ADMIN,
      'nueva.persona@example.org',
      '127.0.0.1',
    ]);
    const grants = (await listAudit(t.db.kysely, { action: 'access.grant', limit: 2 })).map((r) => [
      r.department_slug,
      r.actor_email,
    ]);
    expect(grants.sort()).toEqual([
      ['lagunillas', ADMIN],
      ['notas', ADMIN],
    ]);
  });

  it('takes the password the admin chose and then answers no one-time password', async () => {
    const email = freshEmail();
    const res = await send('POST', '/api/admin/users', { email, role: 'admin', password: 'elegida-123' });
    expect(res.statusCode).toBe(201);
    expect(res.json().oneTimePassword).toBeNull();
    expect(res.json().user.role).toBe('admin');
    await loginAs(t, email, 'elegida-123');
  });

  it('refuses a taken e-mail whatever its case, and bad input, in Spanish', async () => {
    const taken = await send('POST', '/api/admin/users', { email: 'ANA@example.ORG' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe('Ya existe un usuario con el correo ana@example.org.');
    const cases: [object, string][] = [
      [{}, 'Indica el correo electrónico.'],
      [{ email: '   ' }, 'Indica el correo electrónico.'],
      [{ email: 'no-es-correo' }, 'El formato del email es inválido.'],
      [{ email: 'a@b.co', password: 'corta-123' }, 'Una contraseña nueva debe tener al menos 10 caracteres.'],
      [{ email: 'a@b.co', password: '1234567890' }, COMMON],
      [{ email: 'a@b.co', password: 'Password123' }, COMMON],
      [{ email: 'a@b.co', password: '11111111111' }, REPEATED],
      [{ email: 'a@b.co', password: 'zzzzzzzzzzzzzzzz' }, REPEATED],
      [{ email: 'a@b.co', password: '1234567890ab' }, WEAK],
      [{ email: 'a@b.co', password: 'qwertyuiopas' }, WEAK],
      [{ email: 'a@b.co', password: 'abcdefghijk' }, WEAK],
      [{ email: 'a@b.co', role: 'jefe' }, 'Opción inválida: se esperaba una de "admin"|"staff"'],
      [{ email: 'a@b.co', departments: ['no-existe'] }, 'No existe el departamento no-existe.'],
    ];
    for (const [payload, message] of cases) {
      const res = await send('POST', '/api/admin/users', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().message, JSON.stringify(payload)).toBe(message);
    }
    expect((await get('/api/admin/users?q=a@b.co')).json().total).toBe(0);
  });
});

describe('PATCH /api/admin/users/:id', () => {
  it('disables an account, ending its sessions at once, and enables it again; both audited', async () => {
    const email = freshEmail();
    await createUser(t.db, { email, role: 'staff', departments: ['sucre'] });
    const cookie = await sessionCookie(t, email);
    const id = await userId(t, email);

    const off = await send('PATCH', `/api/admin/users/${id}`, { disabled: true });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ email, disabled: true });
    expect((await sessionOf(cookie)).user).toBeNull();
    expect(
      (await t.request({ method: 'POST', url: '/api/auth/login', payload: { email, password: TEST_PASSWORD } }))
        .statusCode,
    ).toBe(401);
    expect(await lastAudit('user.disable')).toMatchObject({ actor_email: ADMIN, target: email, ip: '127.0.0.1' });

    const on = await send('PATCH', `/api/admin/users/${id}`, { disabled: false });
    expect(on.json().disabled).toBe(false);
    await loginAs(t, email);
    expect(await lastAudit('user.enable')).toMatchObject({ actor_email: ADMIN, target: email });
  });

  it('changes the role (audited) and refuses changes to the admin’s own account', async () => {
    const email = freshEmail();
    await createUser(t.db, { email, role: 'staff' });
    const res = await send('PATCH', `/api/admin/users/${await userId(t, email)}`, { role: 'admin' });
    expect(res.json().role).toBe('admin');
    expect(JSON.parse((await lastAudit('user.role'))?.details ?? '{}')).toEqual({ from: 'staff', to: 'admin' });

    const self = await send('PATCH', `/api/admin/users/${await userId(t, ADMIN)}`, { disabled: true });
    expect(self.statusCode).toBe(409);
    expect(self.json().message).toMatch(/^No puedes cambiar tu propia cuenta/);
    expect((await sessionOf(admin)).user.email).toBe(ADMIN);
    expect((await send('PATCH', '/api/admin/users/999999', { disabled: true })).statusCode).toBe(404);
    expect((await send('PATCH', `/api/admin/users/${await userId(t, email)}`, {})).json().message).toBe(
      'Indica qué cambiar.',
    );
  });
});

describe('POST /api/admin/users/:id/password', () => {
  it('sets a one-time password shown once and ends every session of the account', async () => {
    const email = freshEmail();
    await createUser(t.db, { email, role: 'staff', departments: ['sucre'] });
    const first = await sessionCookie(t, email);
    const second = await sessionCookie(t, email);
    // A sign-in with the password made this browser one of the account's.
    await loginAs(t, email);
    const id = await userId(t, email);
    const trusted = () =>
      t.db.kysely.selectFrom('trusted_devices').select('token_hash').where('user_id', '=', id).execute();
    expect(await trusted()).toHaveLength(1);
    const res = await send('POST', `/api/admin/users/${id}/password`, {});
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.oneTimePassword).toMatch(OTP_SHAPE);
    expect(body.sessionsEnded).toBe(3);
    // Whoever knew the old password may have signed in on that browser: it is trusted no more.
    expect(await trusted()).toEqual([]);
    expect((await sessionOf(first)).user).toBeNull();
    expect((await sessionOf(second)).user).toBeNull();
    const old = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email, password: TEST_PASSWORD },
    });
    expect(old.statusCode).toBe(401);
    await loginAs(t, email, body.oneTimePassword);
    const audit = await lastAudit('user.password');
    expect(audit).toMatchObject({ actor_email: ADMIN, target: email, ip: '127.0.0.1' });
    expect(audit?.details).not.toContain(body.oneTimePassword);
    expect(JSON.parse(audit?.details ?? '{}')).toEqual({
      sessionsRevoked: 3,
      devicesForgotten: 1,
      oneTimePassword: true,
    });
  });

  it('takes a password the admin chose, checks it, and refuses the admin’s own account', async () => {
    const email = freshEmail();
    await createUser(t.db, { email, role: 'staff' });
    const id = await userId(t, email);
    const short = await send('POST', `/api/admin/users/${id}/password`, { password: 'corta' });
    expect(short.json().message).toBe('Una contraseña nueva debe tener al menos 10 caracteres.');
    const common = await send('POST', `/api/admin/users/${id}/password`, { password: 'qwertyuiop' });
    expect(common.statusCode).toBe(400);
    expect(common.json().message).toBe(COMMON);
    const chosen = await send('POST', `/api/admin/users/${id}/password`, { password: 'otra-clave-9' });
    expect(chosen.json().oneTimePassword).toBeNull();
    await loginAs(t, email, 'otra-clave-9');
    const self = await send('POST', `/api/admin/users/${await userId(t, ADMIN)}/password`, {});
    expect(self.statusCode).toBe(409);
  });
});

describe('POST /api/admin/users/:id/sessions/end', () => {
  it('ends every session of the person, forgets their browsers, audits it; not for the admin’s own account', async () => {
    const email = freshEmail();
    await createUser(t.db, { email, role: 'staff', departments: ['sucre'] });
    const first = await sessionCookie(t, email);
    const second = await sessionCookie(t, email);
    const id = await userId(t, email);
    expect((await send('POST', `/api/admin/users/${id}/sessions/end`, {}, staff)).statusCode).toBe(404);

    const res = await send('POST', `/api/admin/users/${id}/sessions/end`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ user: { email }, sessionsEnded: 2 });
    expect((await sessionOf(first)).user).toBeNull();
    expect((await sessionOf(second)).user).toBeNull();
    // The password still works: only the sessions ended.
    await loginAs(t, email);
    const audit = await lastAudit('user.sessions_end');
    expect(audit).toMatchObject({ actor_email: ADMIN, target: email, ip: '127.0.0.1' });
    expect(JSON.parse(audit?.details ?? '{}')).toMatchObject({ sessionsEnded: 2 });

    const self = await send('POST', `/api/admin/users/${await userId(t, ADMIN)}/sessions/end`, {});
    expect(self.statusCode).toBe(409);
    expect((await sessionOf(admin)).user?.email).toBe(ADMIN);
  });
});

describe('PUT /api/admin/users/:id/departments', () => {
  it('grants and revokes the difference, each change audited; the menu follows at the next request', async () => {
    const email = freshEmail();
    await createUser(t.db, { email, role: 'staff', departments: ['cabimas', 'sucre'] });
    const cookie = await sessionCookie(t, email);
    const res = await send('PUT', `/api/admin/users/${await userId(t, email)}/departments`, {
      departments: ['sucre', 'baralt', 'resultados'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().departments.map((d: { slug: string }) => d.slug)).toEqual(['resultados', 'baralt', 'sucre']);
    expect((await sessionOf(cookie)).menu.map((m: { path: string }) => m.path)).toEqual([
      '/resultados',
      '/validation/baralt',
      '/validation/sucre',
    ]);
    const rows = (await listAudit(t.db.kysely, { limit: 3 })).map((r) => [r.action, r.department_slug, r.target]);
    expect(rows.sort()).toEqual([
      ['access.grant', 'baralt', email],
      ['access.grant', 'resultados', email],
      ['access.revoke', 'cabimas', email],
    ]);
    const unknown = await send('PUT', `/api/admin/users/${await userId(t, email)}/departments`, {
      departments: ['nada'],
    });
    expect(unknown.json().message).toBe('No existe el departamento nada.');
  });
});

describe('POST /api/admin/access/bulk', () => {
  const text = [
    'uno@lote.org, dos@lote.org; Tres Apellido <TRES@lote.org>',
    '',
    'esto no es un correo',
    'ana@example.org',
    'UNO@lote.org',
    '   ',
    'cuatro@lote',
  ].join('\n');

  it('reports each entry in a dry run, and changes nothing', async () => {
    const res = await send('POST', '/api/admin/access/bulk', { text, slug: 'colon', action: 'grant', dryRun: true });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ slug: 'colon', title: 'Colón', action: 'grant', dryRun: true });
    expect(
      body.lines.map((l: { line: number; email: string | null; status: string }) => [l.line, l.email, l.status]),
    ).toEqual([
      [1, 'uno@lote.org', 'added'],
      [1, 'dos@lote.org', 'added'],
      [1, 'tres@lote.org', 'added'],
      [3, null, 'invalid'],
      [4, 'ana@example.org', 'added'],
      [5, 'uno@lote.org', 'duplicate'],
      [7, null, 'invalid'],
    ]);
    expect(body.lines[0].message).toBe('Recibirá acceso. Todavía no tiene cuenta.');
    expect(body.lines[4]).toMatchObject({ message: 'Recibirá acceso.', hasAccount: true });
    expect(body.lines[5].message).toBe('Repetido: ya aparece en la línea 1.');
    expect(body.lines[3]).toMatchObject({
      text: 'esto no es un correo',
      message: 'No es un correo válido.',
      hasAccount: null,
    });
    expect(body.summary).toEqual({ changed: 4, unchanged: 0, invalid: 2, duplicate: 1 });
    const detail = (await get('/api/admin/departments/colon')).json();
    expect(detail.emails).toEqual([]);
  });

  it('applies the valid lines in one go, audited one by one; revoking reports who was not there', async () => {
    const grant = await send('POST', '/api/admin/access/bulk', { text, slug: 'colon', action: 'grant' });
    expect(grant.json().summary).toEqual({ changed: 4, unchanged: 0, invalid: 2, duplicate: 1 });
    expect(grant.json().lines[0].message).toBe('Acceso concedido. Todavía no tiene cuenta.');
    const emails = (await get('/api/admin/departments/colon')).json().emails.map((e: { email: string }) => e.email);
    expect(emails).toEqual(['ana@example.org', 'dos@lote.org', 'tres@lote.org', 'uno@lote.org']);
    const grants = await listAudit(t.db.kysely, { action: 'access.grant', limit: 4 });
    expect(grants.every((r) => r.department_slug === 'colon' && r.actor_email === ADMIN && r.ip === '127.0.0.1')).toBe(
      true,
    );

    const again = await send('POST', '/api/admin/access/bulk', {
      text: 'uno@lote.org',
      slug: 'colon',
      action: 'grant',
    });
    expect(again.json().lines[0]).toMatchObject({
      status: 'already',
      message: 'Ya tenía acceso. Todavía no tiene cuenta.',
    });

    const revoke = await send('POST', '/api/admin/access/bulk', {
      text: 'uno@lote.org\nnadie@lote.org',
      slug: 'colon',
      action: 'revoke',
    });
    expect(revoke.json().lines.map((l: { status: string; message: string }) => [l.status, l.message])).toEqual([
      ['removed', 'Acceso retirado. Todavía no tiene cuenta.'],
      ['absent', 'No estaba en la lista.'],
    ]);
    expect(await lastAudit('access.revoke')).toMatchObject({ department_slug: 'colon', target: 'uno@lote.org' });
  });

  it('refuses an empty list, too many e-mails and an unknown department', async () => {
    const empty = await send('POST', '/api/admin/access/bulk', { text: ' \n , ', slug: 'colon', action: 'grant' });
    expect(empty.json().message).toBe('Pega al menos un correo.');
    const many = Array.from({ length: 1001 }, (_, i) => `p${i}@lote.org`).join('\n');
    const tooMany = await send('POST', '/api/admin/access/bulk', { text: many, slug: 'colon', action: 'grant' });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe('Pega como máximo 1.000 correos a la vez.');
    const unknown = await send('POST', '/api/admin/access/bulk', { text: 'a@b.co', slug: 'nada', action: 'grant' });
    expect(unknown.json().message).toBe('No existe el departamento nada.');
  });
});

describe('PUT /api/admin/users/:id/sms-phones', () => {
  it('keeps the numbers in one form, one account per number, and audits how many', async () => {
    const email = freshEmail();
    await createUser(t.db, { email, role: 'staff', departments: ['cabimas'] });
    const id = await userId(t, email);
    const saved = await send('PUT', `/api/admin/users/${id}/sms-phones`, {
      phones: ['0414-555 12 34', '+58 414 5551234', '58 424 5550000'],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().smsPhones).toEqual(['+584145551234', '+584245550000']);
    expect(await lastAudit('user.sms_phones')).toMatchObject({ target: email, details: JSON.stringify({ count: 2 }) });

    const other = freshEmail();
    await createUser(t.db, { email: other, role: 'staff' });
    const taken = await send('PUT', `/api/admin/users/${await userId(t, other)}/sms-phones`, {
      phones: ['04145551234'],
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toBe(`El número +584145551234 ya es de otra cuenta (${email}).`);
    const bad = await send('PUT', `/api/admin/users/${id}/sms-phones`, { phones: ['12-34'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('12-34 no es un número de teléfono móvil válido');
    expect((await send('PUT', `/api/admin/users/${id}/sms-phones`, { phones: [] }, staff)).statusCode).toBe(404);
  });
});
