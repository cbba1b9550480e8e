/**
 * Authorisation matrix: every operation of /api/openapi.json, asked by each kind of person, and the
 * status each must get. A route that is not listed here fails the test: a new feature adds its rows.
 *
 * People: a visitor, a validator of municipality A, a validator of municipality B, a signed-in staff
 * member on no list, and an admin (on no municipality's list).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addCandidatePhoto, freshEmail, userId } from '#server/testing/admin';
import { AGENDA_EVENT, addAgendaEvent } from '#server/testing/agenda';
import { createUser, sessionCookie, TEST_PASSWORD } from '#server/testing/auth-helpers';
import { addNota } from '#server/testing/notas';
import { addStoredPhoto } from '#server/testing/photos';
import { addRecords, castVote } from '#server/testing/records';
import { newRecordBody } from '#server/testing/records-admin';
import { createTestApp, type TestApp } from '#server/testing/test-app';
import { createTusUpload, TUS, tusMetadata } from '#server/testing/tus';

const PEOPLE = ['anonymous', 'validatorA', 'validatorB', 'noDepartment', 'admin'] as const;
type Person = (typeof PEOPLE)[number];

const FIXTURES = {
  slugA: 'cabimas',
  slugB: 'lagunillas',
  emails: {
    validatorA: 'validador.a@example.org',
    validatorB: 'validador.b@example.org',
    noDepartment: 'sin.departamento@example.org',
    admin: 'jefa@example.org',
  },
} as const;

interface Request {
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
}

interface Case {
  /** What this case checks, when an operation has several. */
  name?: string;
  /** Builds the request; it runs once per person, so it may create fresh data each time. */
  request?: (t: TestApp, person: Person) => Request | Promise<Request>;
  expect: Record<Person, number>;
}

const everyone = (status: number): Record<Person, number> => ({
  anonymous: status,
  validatorA: status,
  validatorB: status,
  noDepartment: status,
  admin: status,
});
/** Open to signed-in admins only; everyone else signed in gets the unknown-resource 404. */
const adminOnly = (okStatus = 200): Record<Person, number> => ({
  anonymous: 401,
  validatorA: 404,
  validatorB: 404,
  noDepartment: 404,
  admin: okStatus,
});

const MATRIX: Record<string, Case[]> = {
  // --- public --------------------------------------------------------------------------------------
  'GET /api/health': [{ expect: everyone(200) }],
  'GET /api/ready': [{ expect: everyone(200) }],
  'GET /api/site': [{ expect: everyone(200) }],
  'GET /api/agenda/today': [{ expect: everyone(200) }],
  'GET /api/notas': [{ expect: everyone(200) }],

  // --- session -------------------------------------------------------------------------------------
  'POST /api/auth/login': [
    {
      name: 'with valid credentials (of another account)',
      request: () => ({ body: { email: 'matriz@example.org', password: TEST_PASSWORD } }),
      expect: everyone(200),
    },
    {
      name: 'with a wrong password',
      request: () => ({ body: { email: 'matriz2@example.org', password: 'incorrecta' } }),
      expect: everyone(401),
    },
  ],
  'POST /api/auth/firebase': [
    {
      name: 'while passwords are checked here (Firebase sign-in has its own tests)',
      request: () => ({ body: { idToken: 'no-es-un-token' } }),
      expect: everyone(404),
    },
  ],
  'GET /api/auth/provider': [{ expect: everyone(200) }],
  'POST /api/auth/password': [
    {
      name: 'with a wrong current password (a visitor has none to change)',
      request: () => ({ body: { currentPassword: 'no-es-la-clave', newPassword: 'otra-clave-2026' } }),
      expect: { ...everyone(400), anonymous: 401 },
    },
  ],
  'POST /api/auth/logout': [{ expect: everyone(200) }],
  // Each request has a fresh session of its own (cookieFor), so ending them all affects no other case.
  'POST /api/auth/logout-all': [{ expect: { ...everyone(200), anonymous: 401 } }],
  'GET /api/auth/session': [{ expect: everyone(200) }],
  'GET /api/auth/sessions': [{ expect: { ...everyone(200), anonymous: 401 } }],
  'DELETE /api/auth/sessions/{id}': [
    {
      name: 'a session of nobody',
      request: () => ({ params: { id: '999999' } }),
      expect: { ...everyone(404), anonymous: 401 },
    },
  ],
  'GET /api/auth/second-factor': [{ expect: { ...everyone(200), anonymous: 401 } }],
  'POST /api/auth/second-factor/enrol': [{ expect: { ...everyone(200), anonymous: 401 } }],
  'POST /api/auth/second-factor/confirm': [
    {
      name: 'with a wrong code',
      request: () => ({ body: { code: '000000' } }),
      expect: { ...everyone(400), anonymous: 401 },
    },
  ],
  'POST /api/auth/second-factor/verify': [
    {
      name: 'without a second factor to verify',
      request: () => ({ body: { code: '000000' } }),
      expect: { ...everyone(400), anonymous: 401 },
    },
  ],

  // --- access ----------------------------------------------------------------------------------------
  'GET /api/access/departments/{slug}': [
    {
      name: 'municipality A',
      request: () => ({ params: { slug: FIXTURES.slugA } }),
      expect: { anonymous: 401, validatorA: 200, validatorB: 404, noDepartment: 404, admin: 404 },
    },
    {
      name: 'municipality B',
      request: () => ({ params: { slug: FIXTURES.slugB } }),
      expect: { anonymous: 401, validatorA: 404, validatorB: 200, noDepartment: 404, admin: 404 },
    },
    {
      name: 'a municipality on nobody’s list',
      request: () => ({ params: { slug: 'sucre' } }),
      expect: { anonymous: 401, validatorA: 404, validatorB: 404, noDepartment: 404, admin: 404 },
    },
    {
      name: 'the Resultados page',
      request: () => ({ params: { slug: 'resultados' } }),
      expect: adminOnly(),
    },
    {
      name: 'a department that does not exist',
      request: () => ({ params: { slug: 'no-existe' } }),
      expect: { anonymous: 401, validatorA: 404, validatorB: 404, noDepartment: 404, admin: 404 },
    },
  ],
  'GET /api/access/departments': [{ expect: adminOnly() }],
  'POST /api/access/departments/{slug}/members': [
    {
      request: () => ({ params: { slug: 'sucre' }, body: { email: 'nuevo@example.org' } }),
      expect: adminOnly(),
    },
  ],
  'DELETE /api/access/departments/{slug}/members/{email}': [
    {
      request: () => ({ params: { slug: 'sucre', email: 'nuevo@example.org' } }),
      expect: adminOnly(),
    },
  ],

  // --- records (validation) ------------------------------------------------------------------------
  'GET /api/candidates': [{ expect: { ...everyone(200), anonymous: 401 } }],
  'GET /api/validation/{slug}/records': [
    {
      name: 'municipality A',
      request: () => ({ params: { slug: FIXTURES.slugA } }),
      expect: { anonymous: 401, validatorA: 200, validatorB: 404, noDepartment: 404, admin: 404 },
    },
    {
      name: 'a staff page holds no records',
      request: () => ({ params: { slug: 'resultados' } }),
      expect: { ...everyone(404), anonymous: 401 },
    },
  ],
  'GET /api/validation/{slug}/summary': [
    {
      request: () => ({ params: { slug: FIXTURES.slugB } }),
      expect: { anonymous: 401, validatorA: 404, validatorB: 200, noDepartment: 404, admin: 404 },
    },
  ],
  'POST /api/validation/{slug}/records/{id}/vote': [
    {
      name: 'a fresh record of A',
      request: async (t) => {
        const [id] = await addRecords(t, FIXTURES.slugA, 1);
        return { params: { slug: FIXTURES.slugA, id: String(id) }, body: { candidates: ['FA'] } };
      },
      expect: { anonymous: 401, validatorA: 201, validatorB: 404, noDepartment: 404, admin: 404 },
    },
    {
      name: 'a record of B asked for under A',
      request: async (t) => {
        const [id] = await addRecords(t, FIXTURES.slugB, 1);
        return { params: { slug: FIXTURES.slugA, id: String(id) }, body: { candidates: [] } };
      },
      expect: { ...everyone(404), anonymous: 401 },
    },
  ],
  'POST /api/validation/{slug}/records/{id}/photos/{kind}': [
    {
      // No body: who gets in is decided before the file is read (those let in are asked for a file).
      name: 'without a file',
      request: async (t) => {
        const [id] = await addRecords(t, FIXTURES.slugA, 1);
        return { params: { slug: FIXTURES.slugA, id: String(id), kind: 'gobernador' } };
      },
      expect: { anonymous: 401, validatorA: 400, validatorB: 404, noDepartment: 404, admin: 404 },
    },
  ],
  'POST /api/photo-uploads': [
    {
      name: 'a resumable upload for a fresh record of A',
      request: async (t) => {
        const [id] = await addRecords(t, FIXTURES.slugA, 1);
        return {
          headers: {
            ...TUS,
            'upload-length': '100',
            'upload-metadata': tusMetadata({ slug: FIXTURES.slugA, recordId: id as number, kind: 'an' }),
            'idempotency-key': crypto.randomUUID(),
          },
        };
      },
      expect: { anonymous: 401, validatorA: 201, validatorB: 404, noDepartment: 404, admin: 404 },
    },
  ],
  'PATCH /api/photo-uploads/{id}': [
    {
      name: "validator A's upload, no bytes yet",
      request: async (t) => ({
        params: { id: await uploadOfValidatorA(t) },
        headers: { ...TUS, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
      }),
      expect: { anonymous: 401, validatorA: 204, validatorB: 404, noDepartment: 404, admin: 404 },
    },
  ],
  'DELETE /api/photo-uploads/{id}': [
    {
      name: "validator A's upload",
      request: async (t) => ({ params: { id: await uploadOfValidatorA(t) }, headers: { ...TUS } }),
      expect: { anonymous: 401, validatorA: 204, validatorB: 404, noDepartment: 404, admin: 404 },
    },
  ],
  'POST /api/photo-uploads/{id}/complete': [
    {
      name: "validator A's upload, not finished",
      request: async (t) => ({ params: { id: await uploadOfValidatorA(t) } }),
      expect: { anonymous: 401, validatorA: 409, validatorB: 404, noDepartment: 404, admin: 404 },
    },
  ],
  'POST /api/field/reports': [
    {
      request: () => ({
        body: {
          deviceId: crypto.randomUUID(),
          deviceNow: new Date().toISOString(),
          lastSuccessAt: null,
          lastError: null,
          items: [],
        },
      }),
      expect: { ...everyone(200), anonymous: 401 },
    },
  ],
  'GET /api/field': [{ expect: { ...everyone(200), anonymous: 401 } }],
  'GET /api/field/pace': [{ expect: { ...everyone(200), anonymous: 401 } }],
  'GET /api/election': [{ expect: { ...everyone(200), anonymous: 401 } }],
  // 'Por llegar': every signed-in person reads it, each validator only their own departments' items.
  'GET /api/election/outstanding': [{ expect: { ...everyone(200), anonymous: 401 } }],
  // A phone's question about its own items: each person is answered only about the keys they stored.
  'POST /api/election/items': [
    {
      request: () => ({ body: { keys: ['0193f1a0-0000-7000-8000-000000000009'] } }),
      expect: { ...everyone(200), anonymous: 401 },
    },
  ],
  'GET /api/field/{slug}': [
    {
      name: 'municipality A (admins see every one)',
      request: () => ({ params: { slug: FIXTURES.slugA } }),
      expect: { anonymous: 401, validatorA: 200, validatorB: 404, noDepartment: 404, admin: 200 },
    },
  ],
  'POST /api/field/{slug}/clear': [
    {
      name: 'municipality A',
      request: () => ({ params: { slug: FIXTURES.slugA }, body: { email: 'nadie@example.org' } }),
      expect: { anonymous: 401, validatorA: 200, validatorB: 404, noDepartment: 404, admin: 200 },
    },
  ],
  'GET /api/photo-settings': [{ expect: { ...everyone(200), anonymous: 401 } }],
  'GET /api/photos/{id}': [
    {
      name: 'a photo of A',
      request: async (t) => {
        const [id] = await addRecords(t, FIXTURES.slugA, 1);
        return { params: { id: String(await addStoredPhoto(t, id as number, 'an')) } };
      },
      // Admins review every municipality's photos (decision 134).
      expect: { anonymous: 401, validatorA: 200, validatorB: 404, noDepartment: 404, admin: 200 },
    },
  ],

  // --- photo review (admins, and the reviewers an admin names: none among these people) -------------
  'GET /api/photo-review/queue': [{ expect: adminOnly() }],
  'POST /api/photo-review/records/{id}': [
    {
      name: 'a validated record of A, every photo conforme',
      request: async (t) => {
        const [id] = (await addRecords(t, FIXTURES.slugA, 1)) as [number];
        await castVote(t, id, ['FA']);
        const verdicts = [];
        for (const kind of ['gobernador', 'an', 'clez'] as const) {
          verdicts.push({ kind, photoId: await addStoredPhoto(t, id, kind), verdict: 'conforme' });
        }
        return { params: { id: String(id) }, body: { verdicts } };
      },
      expect: adminOnly(),
    },
  ],
  'GET /api/photo-review/grants': [{ expect: adminOnly() }],
  'POST /api/photo-review/grants': [
    { request: () => ({ body: { email: 'revisor@example.org', slug: FIXTURES.slugA } }), expect: adminOnly() },
  ],
  'DELETE /api/photo-review/grants': [
    { request: () => ({ body: { email: 'revisor@example.org', slug: FIXTURES.slugA } }), expect: adminOnly() },
  ],

  // --- results (the Resultados allow-list; admins are its base group) -------------------------------
  'GET /api/results': [{ expect: adminOnly() }],
  'GET /api/election/close-results': [{ expect: adminOnly() }],
  'GET /api/results/stream': [
    {
      // app.inject cannot hold a stream open: it does not ask for one, so the allowed person gets 406.
      name: 'without Accept: text/event-stream',
      expect: adminOnly(406),
    },
  ],
  'GET /api/results/breakdown': [{ expect: adminOnly() }],
  'GET /api/results/timeline': [{ expect: adminOnly() }],
  'GET /api/results/breakdown.csv': [{ expect: adminOnly() }],
  'GET /api/results/validated.csv': [{ expect: adminOnly() }],

  // --- back office: people, departments, candidates, settings, audit log -----------------------------
  'GET /api/admin/users': [{ expect: adminOnly() }],
  'POST /api/admin/users': [
    { request: () => ({ body: { email: freshEmail('matriz'), role: 'staff' } }), expect: adminOnly(201) },
    {
      name: 'with an invalid body: refused before it is read',
      request: () => ({ body: { email: 'no-es-correo' } }),
      expect: adminOnly(400),
    },
  ],
  'PATCH /api/admin/users/{id}': [
    {
      request: async (t) => {
        const email = freshEmail('objetivo');
        await createUser(t.db, { email, role: 'staff' });
        return { params: { id: String(await userId(t, email)) }, body: { disabled: true } };
      },
      expect: adminOnly(),
    },
  ],
  'POST /api/admin/users/{id}/password': [
    {
      request: async (t) => {
        const email = freshEmail('objetivo');
        await createUser(t.db, { email, role: 'staff' });
        return { params: { id: String(await userId(t, email)) }, body: {} };
      },
      expect: adminOnly(),
    },
  ],
  'POST /api/admin/users/{id}/sessions/end': [
    {
      request: async (t) => {
        const email = freshEmail('objetivo');
        await createUser(t.db, { email, role: 'staff' });
        return { params: { id: String(await userId(t, email)) } };
      },
      expect: adminOnly(),
    },
  ],
  'POST /api/admin/users/{id}/second-factor/reset': [
    {
      name: 'of a person without one',
      request: async (t) => {
        const email = freshEmail('objetivo');
        await createUser(t.db, { email, role: 'staff' });
        return { params: { id: String(await userId(t, email)) } };
      },
      expect: { ...adminOnly(), admin: 400 },
    },
  ],
  'PUT /api/admin/users/{id}/departments': [
    {
      request: async (t) => {
        const email = freshEmail('objetivo');
        await createUser(t.db, { email, role: 'staff' });
        return { params: { id: String(await userId(t, email)) }, body: { departments: ['sucre'] } };
      },
      expect: adminOnly(),
    },
  ],
  'PUT /api/admin/users/{id}/sms-phones': [
    {
      request: async (t) => {
        const email = freshEmail('objetivo');
        await createUser(t.db, { email, role: 'staff' });
        return { params: { id: String(await userId(t, email)) }, body: { phones: [] } };
      },
      expect: adminOnly(),
    },
  ],
  'POST /api/admin/access/bulk': [
    {
      request: () => ({ body: { text: 'lista@example.org', slug: 'sucre', action: 'grant', dryRun: true } }),
      expect: adminOnly(),
    },
  ],
  'GET /api/admin/departments': [{ expect: adminOnly() }],
  'GET /api/admin/departments/{slug}': [{ request: () => ({ params: { slug: FIXTURES.slugA } }), expect: adminOnly() }],
  'POST /api/admin/departments': [
    {
      request: (_t, person) => ({
        body: {
          title: `Municipio de prueba ${PEOPLE.indexOf(person)}`,
          slug: `municipio-de-prueba-${PEOPLE.indexOf(person)}`,
        },
      }),
      expect: adminOnly(201),
    },
  ],
  'PATCH /api/admin/departments/{slug}': [
    { request: () => ({ params: { slug: 'sucre' }, body: { title: 'Sucre' } }), expect: adminOnly() },
  ],
  'GET /api/admin/candidates': [{ expect: adminOnly() }],
  'POST /api/admin/candidates': [
    {
      request: (_t, person) => ({
        body: { code: `M${'ABCDE'[PEOPLE.indexOf(person)]}`, name: 'Candidata de prueba', colour: '#123456' },
      }),
      expect: adminOnly(201),
    },
  ],
  'PATCH /api/admin/candidates/{id}': [
    { request: () => ({ params: { id: '1' }, body: { colour: '#1D4ED8' } }), expect: adminOnly() },
  ],
  'DELETE /api/admin/candidates/{id}': [
    {
      name: 'a candidate that does not exist',
      request: () => ({ params: { id: '999999' } }),
      expect: adminOnly(404),
    },
  ],
  'POST /api/admin/candidates/{id}/photo': [
    {
      // No body: who gets in is decided before the file is read (an admin is asked for a file).
      name: 'without a file',
      request: () => ({ params: { id: '1' } }),
      expect: adminOnly(400),
    },
  ],
  'GET /api/admin/settings': [{ expect: adminOnly() }],
  'PUT /api/admin/settings': [
    {
      request: () => ({
        body: {
          campaignName: 'Comando Pruebas',
          leaderName: 'Gabriela Urdaneta',
          resultsDenominator: 5373,
          logoutRoute: '/',
          photoMaxMb: 20,
        },
      }),
      expect: adminOnly(),
    },
  ],
  'GET /api/admin/audit': [{ expect: adminOnly() }],
  'GET /api/admin/audit.csv': [{ expect: adminOnly() }],
  'GET /api/admin/evidence/chain': [{ expect: adminOnly() }],
  'POST /api/admin/evidence/chain/check': [{ expect: adminOnly() }],
  'GET /api/admin/evidence/package.zip': [
    { request: () => ({ query: { department: FIXTURES.slugA } }), expect: adminOnly() },
  ],
  'GET /api/admin/election': [{ expect: adminOnly() }],
  'GET /api/admin/election/copy': [{ expect: adminOnly() }],
  // Votes by SMS: 'Mensajes' for admins; the gateway's webhook is off here (no SMS_GATEWAY_URL), and
  // answers only signed requests where it is on (sms.routes.test.ts).
  'GET /api/admin/sms/messages': [{ expect: adminOnly() }],
  'GET /api/admin/sms/status': [{ expect: adminOnly() }],
  'POST /api/sms/webhook': [
    { request: () => ({ body: { event: 'sms:received', payload: {} } }), expect: everyone(404) },
  ],
  'PUT /api/admin/election/phase': [
    {
      // The day stays under way for the routes after this one: an admin is told it already is.
      name: 'to the phase it is in',
      request: () => ({ body: { phase: 'en_curso', reason: 'Sigue en curso' } }),
      expect: adminOnly(400),
    },
  ],
  'POST /api/admin/election/drill/end': [
    {
      // The day is not in the drill: an admin is told so, and nothing is erased.
      name: 'outside the drill',
      request: () => ({ body: { votes: 0, photos: 0, reason: 'Fin de la práctica' } }),
      expect: adminOnly(409),
    },
  ],
  'POST /api/admin/election/drill/accounts': [
    {
      // The rehearsal's accounts are made only during the drill: an admin is told so, and none is made.
      name: 'outside the drill',
      request: () => ({ body: { count: 2, departments: [FIXTURES.slugA], smsPhones: 0 } }),
      expect: adminOnly(409),
    },
  ],
  'PUT /api/admin/election/close': [
    { request: () => ({ body: { closesAt: null, graceHours: 12, reason: 'Sin hora fija' } }), expect: adminOnly() },
  ],
  // --- agenda and notas editors (admins and each page's own list; the lists' people are checked in
  // agenda.admin.routes.test.ts and notas.admin.routes.test.ts) -------------------------------------------
  'GET /api/admin/agenda': [
    { request: () => ({ query: { from: '2026-12-01', to: '2026-12-31' } }), expect: adminOnly() },
  ],
  'POST /api/admin/agenda': [{ request: () => ({ body: AGENDA_EVENT }), expect: adminOnly(201) }],
  'PUT /api/admin/agenda/{id}': [
    {
      request: async (t) => ({ params: { id: String(await addAgendaEvent(t)) }, body: AGENDA_EVENT }),
      expect: adminOnly(),
    },
  ],
  'DELETE /api/admin/agenda/{id}': [
    { request: async (t) => ({ params: { id: String(await addAgendaEvent(t)) } }), expect: adminOnly() },
  ],
  'POST /api/admin/agenda/copy': [
    {
      request: async (t) => {
        await addAgendaEvent(t, { fecha: '2026-12-05' });
        return { body: { from: '2026-12-05', to: '2026-12-06' } };
      },
      expect: adminOnly(201),
    },
  ],
  'GET /api/admin/notas': [{ expect: adminOnly() }],
  'GET /api/admin/notas/{id}': [
    { request: async (t) => ({ params: { id: String(await addNota(t)) } }), expect: adminOnly() },
  ],
  'POST /api/admin/notas': [
    { request: () => ({ body: { title: 'Matriz', contentHtml: '<p>texto</p>' } }), expect: adminOnly(201) },
  ],
  'PUT /api/admin/notas/{id}': [
    {
      request: async (t) => ({
        params: { id: String(await addNota(t)) },
        body: { title: 'Cambio', contentHtml: '<p>otro</p>' },
      }),
      expect: adminOnly(),
    },
  ],
  'POST /api/admin/notas/{id}/publish': [
    { request: async (t) => ({ params: { id: String(await addNota(t)) } }), expect: adminOnly() },
  ],
  'POST /api/admin/notas/{id}/unpublish': [
    { request: async (t) => ({ params: { id: String(await addNota(t, { published: true })) } }), expect: adminOnly() },
  ],
  'DELETE /api/admin/notas/{id}': [
    { request: async (t) => ({ params: { id: String(await addNota(t)) } }), expect: adminOnly() },
  ],

  // --- records back office (admins only) ----------------------------------------------------------------
  'GET /api/admin/records/departments': [{ expect: adminOnly() }],
  'GET /api/admin/records': [
    { name: 'one municipality', request: () => ({ query: { department: FIXTURES.slugA } }), expect: adminOnly() },
    { name: 'every municipality, with a search', request: () => ({ query: { q: 'persona' } }), expect: adminOnly() },
  ],
  'POST /api/admin/records': [{ request: () => ({ body: newRecordBody(FIXTURES.slugB) }), expect: adminOnly(201) }],
  'PUT /api/admin/records/{id}': [
    {
      request: async (t) => {
        const [id] = await addRecords(t, FIXTURES.slugB, 1);
        return { params: { id: String(id) }, body: newRecordBody(FIXTURES.slugB) };
      },
      expect: adminOnly(),
    },
  ],
  // Never run for real here (it would leave no phone for the other cases): a body without the typed
  // confirmation is refused. records-purge.test.ts runs it.
  'POST /api/admin/records/purge': [
    {
      name: 'without the typed confirmation',
      request: () => ({ body: { photos: 'keep', confirm: 'no' } }),
      expect: adminOnly(400),
    },
  ],
  'POST /api/admin/records/{id}/phone': [
    {
      request: async (t) => {
        const [id] = await addRecords(t, FIXTURES.slugB, 1);
        return { params: { id: String(id) } };
      },
      expect: adminOnly(),
    },
  ],
  'POST /api/admin/records/{id}/void': [
    {
      request: async (t) => {
        const [id] = await addRecords(t, FIXTURES.slugB, 1);
        return { params: { id: String(id) }, body: { reason: 'Matriz' } };
      },
      expect: adminOnly(),
    },
  ],
  'POST /api/admin/records/{id}/restore': [
    {
      request: async (t) => {
        const [id] = await addRecords(t, FIXTURES.slugB, [{ status: 'anulado' }]);
        return { params: { id: String(id) }, body: { reason: 'Matriz' } };
      },
      expect: adminOnly(),
    },
  ],
  'PUT /api/admin/records/{id}/vote': [
    {
      // Voted by a validator of A; a correction is an admin's, whoever else is on A's list.
      request: async (t) => {
        const [id] = await addRecords(t, FIXTURES.slugA, 1);
        await castVote(t, id as number, ['FA']);
        return { params: { id: String(id) }, body: { candidates: ['LC'], reason: 'Matriz', voteRevision: 1 } };
      },
      expect: adminOnly(),
    },
  ],
  'POST /api/admin/records/import': [
    {
      // No body: who gets in is decided before the file is read (an admin is asked for a file).
      name: 'without a file',
      expect: adminOnly(400),
    },
  ],
  'GET /api/admin/records/export.csv': [
    { request: () => ({ query: { department: FIXTURES.slugA } }), expect: adminOnly() },
  ],
  // Candidate photos are public campaign material (the results page shows them).
  'GET /api/candidate-photos/{dir}/{file}': [
    {
      request: async (t) => {
        const [dir, file] = (await addCandidatePhoto(t, 'LC')).split('/').slice(-2) as [string, string];
        return { params: { dir, file } };
      },
      expect: everyone(200),
    },
  ],
};

let t: TestApp;
let operations: string[];

beforeAll(async () => {
  t = await createTestApp();
  await createUser(t.db, { email: FIXTURES.emails.validatorA, role: 'staff', departments: [FIXTURES.slugA] });
  await createUser(t.db, { email: FIXTURES.emails.validatorB, role: 'staff', departments: [FIXTURES.slugB] });
  await createUser(t.db, { email: FIXTURES.emails.noDepartment, role: 'staff' });
  await createUser(t.db, { email: FIXTURES.emails.admin, role: 'admin' });
  await createUser(t.db, { email: 'matriz@example.org', role: 'staff' });
  // A record in each municipality from the start: every list answered has a phone to show or mask.
  await addRecords(t, FIXTURES.slugA, 1);
  await addRecords(t, FIXTURES.slugB, 1);
  const spec = (await t.app.inject({ url: '/api/openapi.json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  operations = Object.entries(spec.paths).flatMap(([path, ops]) =>
    Object.keys(ops)
      .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
});
afterAll(async () => t?.close());

/**
 * A fresh session for each request, so a logout in one case cannot affect another. Written directly:
 * the matrix is about what each person may do once signed in, not about signing in.
 */
async function cookieFor(person: Person): Promise<string | undefined> {
  if (person === 'anonymous') return undefined;
  return sessionCookie(t, FIXTURES.emails[person]);
}

/** A fresh resumable upload started by validator A, for a record of A: its id. */
async function uploadOfValidatorA(t: TestApp): Promise<string> {
  const [id] = await addRecords(t, FIXTURES.slugA, 1);
  const cookie = (await cookieFor('validatorA')) as string;
  const created = await createTusUpload(t, cookie, {
    slug: FIXTURES.slugA,
    recordId: id as number,
    kind: 'an',
    size: 100,
  });
  return created.id;
}

/** Every phone stored (as typed), to search the answers for. */
async function storedPhones(): Promise<string[]> {
  const rows = await t.db.kysely.selectFrom('records').select('telefono').execute();
  return rows.map((r) => r.telefono);
}

async function auditRows(): Promise<number> {
  const row = await t.db.kysely
    .selectFrom('audit_log')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function urlFor(path: string, request: Request): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = request.params?.[name];
    if (value === undefined) throw new Error(`Falta el parámetro ${name} para ${path}`);
    return encodeURIComponent(value);
  });
  const query = request.query ? `?${new URLSearchParams(request.query)}` : '';
  return `${filled}${query}`;
}

describe('authorisation matrix', () => {
  it('lists every operation of the API, and nothing that is not one', () => {
    const missing = operations.filter((op) => !(op in MATRIX));
    const stale = Object.keys(MATRIX).filter((op) => !operations.includes(op));
    expect(missing, 'operations without rows in the authorisation matrix').toEqual([]);
    expect(stale, 'rows for operations the API no longer has').toEqual([]);
  });

  // Hundreds of requests, each after a real argon2 sign-in: minutes on a busy machine, not a speed check.
  it('answers each person exactly as the matrix says', { timeout: 180_000 }, async () => {
    const failures: string[] = [];
    const phoneProbes: string[] = [];
    const phonesSeen: string[] = [];
    const exportsUnaudited: string[] = [];
    for (const op of operations) {
      const [method, path] = op.split(' ') as [string, string];
      for (const c of MATRIX[op] ?? []) {
        for (const person of PEOPLE) {
          const request = (await c.request?.(t, person)) ?? {};
          const cookie = await cookieFor(person);
          const auditBefore = await auditRows();
          const res = await t.request({
            method: method as 'GET',
            url: urlFor(path, request),
            headers: { ...request.headers, ...(cookie ? { cookie } : {}) },
            ...(request.body === undefined ? {} : { payload: request.body as object }),
          });
          const expected = c.expect[person];
          if (res.statusCode < 300) {
            // Every answer, searched for any record's whole phone (decision 081).
            const probe = `${op} as ${person}`;
            phoneProbes.push(probe);
            if ((await storedPhones()).some((phone) => res.body.includes(phone))) phonesSeen.push(probe);
            if (path.endsWith('.csv') && (await auditRows()) === auditBefore) exportsUnaudited.push(probe);
          }
          if (res.statusCode !== expected) {
            failures.push(
              `${op}${c.name ? ` (${c.name})` : ''} as ${person}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 120)}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // Whole phones reach the validators of the record's own department, an admin's audited 'Mostrar' and
    // the audited CSV export of a municipality; every other answer shows them masked, or none.
    expect(phonesSeen.sort()).toEqual(
      [
        'GET /api/admin/records/export.csv as admin',
        'GET /api/validation/{slug}/records as validatorA',
        'POST /api/admin/records/{id}/phone as admin',
        'POST /api/validation/{slug}/records/{id}/vote as validatorA',
      ].sort(),
    );
    expect(phoneProbes.length).toBeGreaterThan(100);
    expect(exportsUnaudited).toEqual([]);
  });

  it('gives a signed-in person the same 404 for a department they may not see as for one that does not exist', async () => {
    const cookie = await cookieFor('validatorA');
    const hidden = await t.request({ url: `/api/access/departments/${FIXTURES.slugB}`, headers: { cookie } });
    const unknown = await t.request({ url: '/api/access/departments/no-existe', headers: { cookie } });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).toBe(unknown.body);
  });
});
